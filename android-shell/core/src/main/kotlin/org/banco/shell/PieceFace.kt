// What to draw for a piece and for jieqi's pools, decided here (tested on the JVM) so that the
// app's canvas only paints: a piece's front (its glyph), the back of a face-down jieqi piece
// (a plain disc of its side's colour with a pattern and no glyph: nobody knows what it is),
// and each side's pool of hidden pieces by kind and count, placed above or below the board
// next to that side's pieces (which pool goes where, and which kinds it lists, is Rust's
// BoardView.poolSides).
package org.banco.shell

import org.banco.BoardView
import org.banco.Cell
import org.banco.Color
import org.banco.Piece
import org.banco.Pool

/** How a piece looks on the board. */
sealed interface PieceFace {
    /** Its side. */
    val color: Color

    /**
     * The front: [glyph] on a disc ([onDisc]: xiangqi and jieqi pieces stand on the lines) or
     * the bare symbol (chess).
     */
    data class Front(override val color: Color, val glyph: String, val onDisc: Boolean) : PieceFace

    /** The back of a face-down jieqi piece: a disc in its side's colour, a pattern, no glyph. */
    data class Back(override val color: Color) : PieceFace
}

/** How [piece] is drawn on a board whose pieces stand on the lines ([onLines]) or in squares. */
fun faceOf(piece: Piece, onLines: Boolean): PieceFace =
    if (piece.faceDown) PieceFace.Back(piece.color) else PieceFace.Front(piece.color, piece.glyph, onLines)

/** How the piece on this cell is drawn; null for an empty cell. */
fun BoardView.faceAt(cell: Cell): PieceFace? = cell.piece?.let { faceOf(it, onLines) }

/** One kind still hidden in a pool: its front and how many. */
data class PoolItem(val face: PieceFace.Front, val name: String, val count: Int) {
    /** Short text: the glyph and the count ("車×2"). */
    val text: String get() = "${face.glyph}×$count"
}

/** One side's pool as shown beside the board. */
data class PoolShelf(
    val color: Color,
    /** The kinds still hidden, with counts (Rust leaves out the kinds all revealed). */
    val items: List<PoolItem>,
    /** Unrevealed pieces in all (face-down pieces captured unseen stay in the pool). */
    val total: Int,
    /** The side's face-down pieces still on the board. */
    val faceDown: Int,
    /** The heading: "Red: 15 hidden" (Rust's [Pool.title]). */
    val title: String,
) {
    /** The whole shelf in one line: "Red: 15 hidden  俥×2 傌×2 …". */
    val text: String get() = (listOf(title) + items.map { it.text }).joinToString("  ")
}

/** Both pools placed on screen: [top] next to the side at the top of the board. */
data class PoolShelves(val top: PoolShelf, val bottom: PoolShelf)

/** A pool (jieqi) as a shelf: beside a board, or in the editor. */
fun shelfOf(pool: Pool): PoolShelf = PoolShelf(
    color = pool.color,
    items = pool.entries.map { PoolItem(faceOf(it.piece, onLines = true) as PieceFace.Front, it.piece.name, it.count.toInt()) },
    total = pool.total.toInt(),
    faceDown = pool.faceDown.toInt(),
    title = pool.title,
)

/** The pools to show beside the board (jieqi), placed by Rust ([BoardView.poolSides]); null without pools. */
fun BoardView.poolShelves(): PoolShelves? = poolSides?.let { PoolShelves(shelfOf(it.top), shelfOf(it.bottom)) }
