// Paints a Lines board (Rust's cells: 0 empty, else the colour + 1) with android.graphics: a
// square grid of balls (Rust's size, core's linesSide a side), the picked ball ringed, the
// reachable cells dotted, with Lines 98's preview each next ball small on the cell where it
// will land, and the moved ball walking along its path (core's BallRun: one cell per step,
// then the landed balls appear). A tap reports the cell index (rank × side + file from a1,
// rank 1 at the bottom).
package org.banco.app

import android.animation.ValueAnimator
import android.annotation.SuppressLint
import android.content.Context
import android.graphics.Canvas
import android.graphics.Color
import android.graphics.Paint
import android.view.MotionEvent
import android.view.View
import org.banco.shell.BallRun
import org.banco.shell.linesCells
import org.banco.shell.linesSide

class LinesCanvas(context: Context) : View(context) {
    /** Called with the tapped cell index. */
    var onCellTapped: ((Int) -> Unit)? = null

    /** The board to show (the end of the last turn). */
    var cells: List<Int> = List(linesCells.count()) { 0 }
        set(value) { field = value; invalidate() }
    var selected: Int? = null
        set(value) { field = value; invalidate() }
    var reachable: Set<Int> = emptySet()
        set(value) { field = value; invalidate() }
    /** With the preview: each next ball as (cell, colour), drawn small in its cell (core's spotBalls). */
    var spots: List<Pair<Int, Int>> = emptyList()
        set(value) { field = value; invalidate() }

    private var run: BallRun? = null
    private var elapsed = 0L
    private var animator: ValueAnimator? = null

    /**
     * Animates [r]: the ball walks its path; the board after the turn shows once it arrives.
     * Null (an undo, a new game) stops a walk, so that the same turn played again walks again.
     */
    fun animate(r: BallRun?) {
        if (r == run) return
        run = r
        animator?.cancel()
        animator = null
        elapsed = 0
        if (r == null) return invalidate()
        animator = ValueAnimator.ofFloat(0f, r.durationMs.toFloat()).apply {
            duration = r.durationMs
            addUpdateListener { elapsed = (it.animatedValue as Float).toLong(); invalidate() }
            start()
        }
    }

    private val palette = intArrayOf(
        Color.rgb(0xE5, 0x39, 0x35), Color.rgb(0x43, 0xA0, 0x47), Color.rgb(0x1E, 0x88, 0xE5),
        Color.rgb(0xFD, 0xD8, 0x35), Color.rgb(0x8E, 0x24, 0xAA), Color.rgb(0x00, 0xAC, 0xC1),
        Color.rgb(0xFB, 0x8C, 0x00),
    )
    private val grid = Paint().apply { color = Color.rgb(0x9E, 0x9E, 0x9E); strokeWidth = 2f }
    private val back = Paint().apply { color = Color.rgb(0xE0, 0xE0, 0xE0) }
    private val ball = Paint(Paint.ANTI_ALIAS_FLAG)
    private val ring = Paint(Paint.ANTI_ALIAS_FLAG).apply { style = Paint.Style.STROKE; strokeWidth = 5f; color = Color.BLACK }

    override fun onMeasure(widthMeasureSpec: Int, heightMeasureSpec: Int) {
        val w = MeasureSpec.getSize(widthMeasureSpec)
        setMeasuredDimension(w, w)
    }

    /** Cells along a side (Rust's Lines board). */
    private val side = linesSide

    private fun centre(cell: Int, size: Float): Pair<Float, Float> =
        (cell % side + 0.5f) * size to (side - 1 - cell / side + 0.5f) * size

    override fun onDraw(canvas: Canvas) {
        val size = width / side.toFloat()
        canvas.drawRect(0f, 0f, width.toFloat(), height.toFloat(), back)
        for (i in 0..side) {
            canvas.drawLine(i * size, 0f, i * size, side * size, grid)
            canvas.drawLine(0f, i * size, side * size, i * size, grid)
        }
        val walking = run?.takeIf { !it.isDone(elapsed) }
        // While the ball walks, the board before the turn without it (core's BallRun.cellsAt):
        // a line it completes is seen whole until it arrives, and the landed balls wait.
        val shown = run?.cellsAt(elapsed, cells) ?: cells
        for (cell in shown.indices) {
            val (x, y) = centre(cell, size)
            if (cell in reachable) {
                ball.color = Color.GRAY
                canvas.drawCircle(x, y, size * 0.08f, ball)
            }
            val code = shown[cell]
            if (code == 0) continue
            ball.color = palette[(code - 1).coerceIn(0, 6)]
            canvas.drawCircle(x, y, size * 0.38f, ball)
            if (cell == selected) canvas.drawCircle(x, y, size * 0.44f, ring)
        }
        // The next balls' spots (Lines 98): small balls of their colours, once the walk is done.
        if (walking == null) {
            for ((cell, color) in spots) {
                if (cell !in cells.indices || cells[cell] != 0) continue
                val (x, y) = centre(cell, size)
                ball.color = palette[color.coerceIn(0, 6)]
                canvas.drawCircle(x, y, size * 0.14f, ball)
            }
        }
        if (walking != null) {
            val (x, y) = centre(walking.cellAt(elapsed), size)
            ball.color = palette[walking.color.coerceIn(0, 6)]
            canvas.drawCircle(x, y, size * 0.38f, ball)
        }
    }

    @SuppressLint("ClickableViewAccessibility")
    override fun onTouchEvent(event: MotionEvent): Boolean {
        if (event.action != MotionEvent.ACTION_UP) return true
        val size = width / side.toFloat()
        val file = (event.x / size).toInt()
        val rank = side - 1 - (event.y / size).toInt()
        if (file in 0 until side && rank in 0 until side) onCellTapped?.invoke(rank * side + file)
        return true
    }
}
