// Paints Rust's ready-to-draw BoardView with android.graphics: xiangqi and jieqi as 9×10 lines
// with the river and the palaces (pieces on the intersections), chess as 8×8 checkered squares
// (pieces in the squares), and each cell's highlights (selected, target, last move, hint,
// check). The geometry is core's BoardLayout and what each piece shows (its front, or the back
// of a face-down jieqi piece) core's PieceFace; a tap reports the screen cell, and Rust
// decides what it does.
package org.banco.app

import android.annotation.SuppressLint
import android.content.Context
import android.graphics.Canvas
import android.graphics.Color
import android.graphics.Paint
import android.graphics.Typeface
import android.view.MotionEvent
import android.view.View
import org.banco.BoardView
import org.banco.Cell
import org.banco.shell.BoardLayout
import org.banco.shell.PieceFace
import org.banco.shell.faceAt

class BoardCanvas(context: Context) : View(context) {
    /** Called with the tapped screen cell (column from the left, row from the top). */
    var onCellTapped: ((column: Int, row: Int) -> Unit)? = null

    var board: BoardView? = null
        set(value) {
            val resize = value?.width != field?.width || value?.height != field?.height
            field = value
            if (resize) requestLayout()
            invalidate()
        }

    private val wood = Paint().apply { color = Color.rgb(0xEE, 0xC9, 0x8A) }
    private val light = Paint().apply { color = Color.rgb(0xF0, 0xD9, 0xB5) }
    private val dark = Paint().apply { color = Color.rgb(0xB5, 0x88, 0x63) }
    private val line = Paint(Paint.ANTI_ALIAS_FLAG).apply { color = Color.rgb(0x5A, 0x3A, 0x1A); strokeWidth = 2f }
    private val riverText = Paint(Paint.ANTI_ALIAS_FLAG).apply {
        color = Color.rgb(0x5A, 0x3A, 0x1A); textAlign = Paint.Align.CENTER; typeface = Typeface.SERIF
    }
    private val back = Paint(Paint.ANTI_ALIAS_FLAG)
    private val disc = Paint(Paint.ANTI_ALIAS_FLAG).apply { color = Color.rgb(0xFB, 0xEB, 0xC8) }
    private val rim = Paint(Paint.ANTI_ALIAS_FLAG).apply { style = Paint.Style.STROKE; strokeWidth = 3f }
    private val glyph = Paint(Paint.ANTI_ALIAS_FLAG).apply { textAlign = Paint.Align.CENTER }
    private val mark = Paint(Paint.ANTI_ALIAS_FLAG).apply { style = Paint.Style.STROKE; strokeWidth = 5f }
    private val dot = Paint(Paint.ANTI_ALIAS_FLAG).apply { color = Color.argb(0xB0, 0x20, 0x80, 0x30) }

    private fun geometry(): BoardLayout? = board?.let { BoardLayout(it, width.toFloat(), height.toFloat()) }

    override fun onMeasure(widthMeasureSpec: Int, heightMeasureSpec: Int) {
        // Keep the board's proportions (9:10 or 1:1) inside what the parent allows.
        val b = board
        val w = MeasureSpec.getSize(widthMeasureSpec)
        val h = MeasureSpec.getSize(heightMeasureSpec)
        if (b == null) {
            setMeasuredDimension(w, h)
            return
        }
        val cols = b.width.toInt()
        val rows = b.height.toInt()
        val c = if (h == 0) w / cols.toFloat() else minOf(w / cols.toFloat(), h / rows.toFloat())
        setMeasuredDimension(resolveSize((c * cols).toInt(), widthMeasureSpec), resolveSize((c * rows).toInt(), heightMeasureSpec))
    }

    override fun onDraw(canvas: Canvas) {
        val b = board ?: return
        val g = geometry() ?: return
        val half = g.cell / 2
        if (b.onLines) {
            canvas.drawRect(g.left, g.top, g.left + g.cell * g.columns, g.top + g.cell * g.rows, wood)
            for (l in b.lines) {
                canvas.drawLine(g.x(l.fromColumn.toInt()), g.y(l.fromRow.toInt()), g.x(l.toColumn.toInt()), g.y(l.toRow.toInt()), line)
            }
            riverText.textSize = g.cell * 0.5f
            // Where the river runs is Rust's (BoardView.riverAfterRow, placed by the layout).
            g.riverY?.let { river ->
                val baseline = river - (riverText.descent() + riverText.ascent()) / 2
                canvas.drawText("楚 河", g.x(2), baseline, riverText)
                canvas.drawText("漢 界", g.x(g.columns - 3), baseline, riverText)
            }
        } else {
            for (c in b.cells) {
                val x = g.x(c.column.toInt()) - half
                val y = g.y(c.row.toInt()) - half
                canvas.drawRect(x, y, x + g.cell, y + g.cell, if (c.dark) dark else light)
            }
        }
        glyph.typeface = if (b.onLines) Typeface.create(Typeface.SERIF, Typeface.BOLD) else Typeface.DEFAULT
        glyph.textSize = g.cell * if (b.onLines) 0.55f else 0.8f
        for (c in b.cells) drawCell(canvas, g, b, c)
    }

    private fun drawCell(canvas: Canvas, g: BoardLayout, b: BoardView, c: Cell) {
        val cx = g.x(c.column.toInt())
        val cy = g.y(c.row.toInt())
        val r = g.cell * 0.5f
        if (c.lastMove) ring(canvas, cx, cy, r * 0.94f, Color.argb(0xC0, 0x30, 0x60, 0xD0))
        if (c.hint) ring(canvas, cx, cy, r, Color.argb(0xC0, 0xE0, 0x90, 0x00))
        when (val face = b.faceAt(c)) {
            null -> {}
            is PieceFace.Back -> drawBack(canvas, cx, cy, r * 0.88f, face.color)
            is PieceFace.Front -> {
                val red = face.color == org.banco.Color.RED
                val ink = if (red) Color.rgb(0xB0, 0x10, 0x10) else Color.rgb(0x20, 0x20, 0x20)
                if (face.onDisc) {
                    // Xiangqi and jieqi: a wooden disc with the Chinese character.
                    canvas.drawCircle(cx, cy, r * 0.88f, disc)
                    rim.color = ink
                    canvas.drawCircle(cx, cy, r * 0.88f, rim)
                    canvas.drawCircle(cx, cy, r * 0.74f, rim)
                    glyph.color = ink
                } else {
                    // Chess: the symbol itself, white pieces light with a dark outline.
                    glyph.color = if (red) Color.WHITE else Color.BLACK
                    glyph.setShadowLayer(2f, 0f, 0f, if (red) Color.BLACK else Color.WHITE)
                }
                canvas.drawText(face.glyph, cx, cy - (glyph.descent() + glyph.ascent()) / 2, glyph)
                glyph.clearShadowLayer()
            }
        }
        if (c.check) ring(canvas, cx, cy, r, Color.RED)
        if (c.selected) ring(canvas, cx, cy, r, Color.rgb(0x20, 0x90, 0x30))
        if (c.target) canvas.drawCircle(cx, cy, g.cell * if (c.piece != null) 0.2f else 0.12f, dot)
    }

    /** The back of a face-down jieqi piece: a disc in its side's colour with rings, no glyph. */
    private fun drawBack(canvas: Canvas, cx: Float, cy: Float, r: Float, side: org.banco.Color) {
        back.color = if (side == org.banco.Color.RED) Color.rgb(0xB0, 0x10, 0x10) else Color.rgb(0x20, 0x20, 0x20)
        canvas.drawCircle(cx, cy, r, back)
        rim.color = Color.rgb(0xFB, 0xEB, 0xC8)
        canvas.drawCircle(cx, cy, r * 0.8f, rim)
        canvas.drawCircle(cx, cy, r * 0.5f, rim)
        canvas.drawCircle(cx, cy, r * 0.2f, rim)
    }

    private fun ring(canvas: Canvas, cx: Float, cy: Float, r: Float, color: Int) {
        mark.color = color
        canvas.drawCircle(cx, cy, r, mark)
    }

    @SuppressLint("ClickableViewAccessibility")
    override fun onTouchEvent(event: MotionEvent): Boolean {
        if (event.action == MotionEvent.ACTION_UP) {
            geometry()?.cellAt(event.x, event.y)?.let { (col, row) -> onCellTapped?.invoke(col, row) }
            performClick()
        }
        return true
    }

    override fun performClick(): Boolean = super.performClick()
}
