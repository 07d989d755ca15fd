// The xiangqi board drawn with android.graphics: 9 files x 10 ranks of intersections, the
// river, the two palaces with their diagonals, pieces as discs with their Chinese glyphs, and
// the highlights (last move, selection, legal targets, hint, king in check). Taps become
// squares for the controller; the model's `flipped` puts Black at the bottom.
package org.banco.app

import android.annotation.SuppressLint
import android.content.Context
import android.graphics.Canvas
import android.graphics.Color
import android.graphics.Paint
import android.graphics.Typeface
import android.view.MotionEvent
import android.view.View
import org.banco.Square
import org.banco.shell.BoardModel
import kotlin.math.min
import kotlin.math.roundToInt

class BoardView(context: Context) : View(context) {
    /** Called with the tapped square. */
    var onSquareTapped: ((Square) -> Unit)? = null

    var board: BoardModel = BoardModel()
        set(value) {
            field = value
            invalidate()
        }

    private val wood = Paint().apply { color = Color.rgb(0xEE, 0xC9, 0x8A) }
    private val line = Paint(Paint.ANTI_ALIAS_FLAG).apply { color = Color.rgb(0x5A, 0x3A, 0x1A); strokeWidth = 2f }
    private val riverText = Paint(Paint.ANTI_ALIAS_FLAG).apply {
        color = Color.rgb(0x5A, 0x3A, 0x1A); textAlign = Paint.Align.CENTER; typeface = Typeface.SERIF
    }
    private val disc = Paint(Paint.ANTI_ALIAS_FLAG).apply { color = Color.rgb(0xFB, 0xEB, 0xC8) }
    private val rim = Paint(Paint.ANTI_ALIAS_FLAG).apply { style = Paint.Style.STROKE; strokeWidth = 3f }
    private val glyph = Paint(Paint.ANTI_ALIAS_FLAG).apply {
        textAlign = Paint.Align.CENTER; typeface = Typeface.create(Typeface.SERIF, Typeface.BOLD)
    }
    private val mark = Paint(Paint.ANTI_ALIAS_FLAG).apply { style = Paint.Style.STROKE; strokeWidth = 5f }
    private val dot = Paint(Paint.ANTI_ALIAS_FLAG).apply { color = Color.argb(0xB0, 0x20, 0x80, 0x30) }

    private var cell = 0f
    private var left = 0f
    private var top = 0f

    override fun onMeasure(widthMeasureSpec: Int, heightMeasureSpec: Int) {
        // 9 x 10 intersections need a 9:10 box (plus half a cell of margin all round).
        val w = MeasureSpec.getSize(widthMeasureSpec)
        val h = MeasureSpec.getSize(heightMeasureSpec)
        val c = if (h == 0) w / 9f else min(w / 9f, h / 10f)
        setMeasuredDimension(resolveSize((c * 9).roundToInt(), widthMeasureSpec), resolveSize((c * 10).roundToInt(), heightMeasureSpec))
    }

    override fun onSizeChanged(w: Int, h: Int, oldw: Int, oldh: Int) {
        cell = min(w / 9f, h / 10f)
        left = (w - cell * 9) / 2 + cell / 2
        top = (h - cell * 10) / 2 + cell / 2
        glyph.textSize = cell * 0.55f
        riverText.textSize = cell * 0.5f
    }

    private fun x(column: Int) = left + column * cell
    private fun y(row: Int) = top + row * cell

    override fun onDraw(canvas: Canvas) {
        canvas.drawRect(0f, 0f, width.toFloat(), height.toFloat(), wood)
        // Ranks, and files broken by the river (except the two edge files).
        for (row in 0..9) canvas.drawLine(x(0), y(row), x(8), y(row), line)
        for (col in 0..8) {
            if (col == 0 || col == 8) {
                canvas.drawLine(x(col), y(0), x(col), y(9), line)
            } else {
                canvas.drawLine(x(col), y(0), x(col), y(4), line)
                canvas.drawLine(x(col), y(5), x(col), y(9), line)
            }
        }
        // Palaces: files d-f, the three ranks at each end.
        for ((a, b) in listOf(0 to 2, 7 to 9)) {
            canvas.drawLine(x(3), y(a), x(5), y(b), line)
            canvas.drawLine(x(5), y(a), x(3), y(b), line)
        }
        val riverY = (y(4) + y(5)) / 2 - (riverText.descent() + riverText.ascent()) / 2
        canvas.drawText("楚 河", x(2), riverY, riverText)
        canvas.drawText("漢 界", x(6), riverY, riverText)

        val b = board
        b.lastMove?.let { m ->
            mark.color = Color.argb(0xC0, 0x30, 0x60, 0xD0)
            for (s in listOf(m.from, m.to)) ring(canvas, s, cell * 0.47f)
        }
        b.hint?.let { m ->
            mark.color = Color.argb(0xC0, 0xE0, 0x90, 0x00)
            for (s in listOf(m.from, m.to)) ring(canvas, s, cell * 0.5f)
        }
        for ((s, p) in b.pieces) {
            val (col, row) = b.cellOf(s)
            val cx = x(col)
            val cy = y(row)
            val red = p.color == org.banco.Color.RED
            canvas.drawCircle(cx, cy, cell * 0.44f, disc)
            rim.color = if (red) Color.rgb(0xB0, 0x10, 0x10) else Color.rgb(0x20, 0x20, 0x20)
            canvas.drawCircle(cx, cy, cell * 0.44f, rim)
            canvas.drawCircle(cx, cy, cell * 0.37f, rim)
            glyph.color = rim.color
            canvas.drawText(p.glyph, cx, cy - (glyph.descent() + glyph.ascent()) / 2, glyph)
        }
        b.checkedKing?.let { mark.color = Color.RED; ring(canvas, it, cell * 0.5f) }
        b.selected?.let { mark.color = Color.rgb(0x20, 0x90, 0x30); ring(canvas, it, cell * 0.5f) }
        for (t in b.targets) {
            val (col, row) = b.cellOf(t)
            canvas.drawCircle(x(col), y(row), cell * if (b.pieces.containsKey(t)) 0.2f else 0.12f, dot)
        }
    }

    private fun ring(canvas: Canvas, s: Square, r: Float) {
        val (col, row) = board.cellOf(s)
        canvas.drawCircle(x(col), y(row), r, mark)
    }

    @SuppressLint("ClickableViewAccessibility")
    override fun onTouchEvent(event: MotionEvent): Boolean {
        if (event.action == MotionEvent.ACTION_UP && cell > 0) {
            val col = ((event.x - left) / cell).roundToInt()
            val row = ((event.y - top) / cell).roundToInt()
            board.squareAt(col, row)?.let { onSquareTapped?.invoke(it) }
            performClick()
        }
        return true
    }

    override fun performClick(): Boolean = super.performClick()
}
