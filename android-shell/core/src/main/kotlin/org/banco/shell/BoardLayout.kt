// Where Rust's ready-to-draw BoardView lands on a screen: the size of a cell, the centre of
// each cell, the cell under a finger, and the xiangqi lines (river, palaces). Pure
// arithmetic, no Android imports, so the app's view only paints and the geometry is tested.
//
// Both games use the same grid of cells: chess draws each cell as a square, xiangqi draws
// lines through the cells' centres (pieces stand on the intersections).
package org.banco.shell

import org.banco.BoardView
import org.banco.Cell
import org.banco.GameKind
import kotlin.math.floor
import kotlin.math.min

class BoardLayout(val columns: Int, val rows: Int, viewWidth: Float, viewHeight: Float) {
    /** The side of a cell, in pixels. */
    val cell: Float = if (columns > 0 && rows > 0) min(viewWidth / columns, viewHeight / rows) else 0f

    /** The left edge of column 0, centring the board. */
    val left: Float = (viewWidth - cell * columns) / 2

    /** The top edge of row 0, centring the board. */
    val top: Float = (viewHeight - cell * rows) / 2

    constructor(board: BoardView, viewWidth: Float, viewHeight: Float) :
        this(board.width.toInt(), board.height.toInt(), viewWidth, viewHeight)

    fun x(column: Int): Float = left + (column + 0.5f) * cell
    fun y(row: Int): Float = top + (row + 0.5f) * cell

    /** The cell (column, row) under a point, or null off the board. */
    fun cellAt(x: Float, y: Float): Pair<Int, Int>? {
        if (cell <= 0f) return null
        val column = floor((x - left) / cell).toInt()
        val row = floor((y - top) / cell).toInt()
        return if (column in 0 until columns && row in 0 until rows) column to row else null
    }

    /** A straight line between two cell centres. */
    data class Line(val fromColumn: Int, val fromRow: Int, val toColumn: Int, val toRow: Int)

    companion object {
        /**
         * The lines of a xiangqi board of [columns]×[rows] (9×10): every row, the edge
         * columns whole, the inner columns broken by the river between rows 4 and 5, and the
         * palaces' diagonals (columns 3-5, the three rows at each end). The same either way up.
         */
        fun xiangqiLines(columns: Int = 9, rows: Int = 10): List<Line> = buildList {
            val riverTop = rows / 2 - 1
            for (r in 0 until rows) add(Line(0, r, columns - 1, r))
            for (c in 0 until columns) {
                if (c == 0 || c == columns - 1) {
                    add(Line(c, 0, c, rows - 1))
                } else {
                    add(Line(c, 0, c, riverTop))
                    add(Line(c, riverTop + 1, c, rows - 1))
                }
            }
            val mid = columns / 2
            for ((a, b) in listOf(0 to 2, rows - 3 to rows - 1)) {
                add(Line(mid - 1, a, mid + 1, b))
                add(Line(mid + 1, a, mid - 1, b))
            }
        }
    }
}

/** The cell of the square named [name] (`e2`), wherever the board is turned. */
fun BoardView.cellNamed(name: String): Cell? = cells.firstOrNull { it.name == name }

/** The cell at a screen position. */
fun BoardView.cellAt(column: Int, row: Int): Cell? =
    if (column in 0 until width.toInt() && row in 0 until height.toInt()) cells[row * width.toInt() + column] else null

/** True for a board drawn with lines and intersections (xiangqi), false for squares (chess). */
val BoardView.drawnOnLines: Boolean get() = kind == GameKind.XIANGQI
