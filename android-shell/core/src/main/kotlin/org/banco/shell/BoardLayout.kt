// Where Rust's ready-to-draw BoardView lands on a screen: the size of a cell, the centre of
// each cell and the cell under a finger. Pure arithmetic, no Android imports, so the app's
// view only paints and the geometry is tested.
//
// Both games use the same grid of cells: chess draws each cell as a square, xiangqi draws
// Rust's `BoardView.lines` through the cells' centres (pieces stand on the intersections).
package org.banco.shell

import org.banco.BoardView
import org.banco.Cell
import kotlin.math.floor
import kotlin.math.min

class BoardLayout(
    val columns: Int,
    val rows: Int,
    viewWidth: Float,
    viewHeight: Float,
    /** The screen row the river runs below (Rust's `BoardView.riverAfterRow`); null without a river (chess). */
    private val riverAfterRow: Int? = null,
) {
    /** The side of a cell, in pixels. */
    val cell: Float = if (columns > 0 && rows > 0) min(viewWidth / columns, viewHeight / rows) else 0f

    /** The left edge of column 0, centring the board. */
    val left: Float = (viewWidth - cell * columns) / 2

    /** The top edge of row 0, centring the board. */
    val top: Float = (viewHeight - cell * rows) / 2

    constructor(board: BoardView, viewWidth: Float, viewHeight: Float) :
        this(board.width.toInt(), board.height.toInt(), viewWidth, viewHeight, board.riverAfterRow?.toInt())

    /**
     * Xiangqi and jieqi: the height of the river's middle, halfway between the centres of the
     * rows on either side of it (write 楚河 漢界 there); null for chess.
     */
    val riverY: Float? get() = riverAfterRow?.let { top + (it + 1) * cell }

    fun x(column: Int): Float = left + (column + 0.5f) * cell
    fun y(row: Int): Float = top + (row + 0.5f) * cell

    /** The cell (column, row) under a point, or null off the board. */
    fun cellAt(x: Float, y: Float): Pair<Int, Int>? {
        if (cell <= 0f) return null
        val column = floor((x - left) / cell).toInt()
        val row = floor((y - top) / cell).toInt()
        return if (column in 0 until columns && row in 0 until rows) column to row else null
    }
}

/** The cell of the square named [name] (`e2`), wherever the board is turned. */
fun BoardView.cellNamed(name: String): Cell? = cells.firstOrNull { it.name == name }

/** The cell at a screen position. */
fun BoardView.cellAt(column: Int, row: Int): Cell? =
    if (column in 0 until width.toInt() && row in 0 until height.toInt()) cells[row * width.toInt() + column] else null

