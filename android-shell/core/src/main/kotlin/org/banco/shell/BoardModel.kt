// The board as the view draws it: pieces, the selected piece and its legal targets, the last
// move, a hint, the king in check, and whether the board is seen from Black's side.
package org.banco.shell

import org.banco.Color
import org.banco.Game
import org.banco.Move
import org.banco.Piece
import org.banco.PieceKind
import org.banco.Square

/** A square from plain ints (file 0-8 = a-i, rank 0-9 from Red's side). */
fun sq(file: Int, rank: Int): Square = Square(file.toUByte(), rank.toUByte())

/** A move from two square names (`h2`, `e2`). */
fun mv(from: String, to: String): Move = Move(square(from), square(to))

fun square(name: String): Square {
    require(name.length == 2 && name[0] in 'a'..'i' && name[1] in '0'..'9') { "bad square $name" }
    return sq(name[0] - 'a', name[1] - '0')
}

val Square.name: String get() = "${'a' + file.toInt()}${rank.toInt()}"

/** What a tap did. */
sealed interface TapResult {
    /** Nothing happened (an empty square, or not the player's turn). */
    data object Ignored : TapResult

    /** A piece of the player's was selected; its legal targets are highlighted. */
    data class Selected(val square: Square) : TapResult

    /** The selection was cleared. */
    data object Cleared : TapResult

    /** The player chose this move (a target of the selected piece). */
    data class Chosen(val move: Move) : TapResult
}

data class BoardModel(
    val pieces: Map<Square, Piece> = emptyMap(),
    val selected: Square? = null,
    val targets: Set<Square> = emptySet(),
    val lastMove: Move? = null,
    val hint: Move? = null,
    val checkedKing: Square? = null,
    /** True when Black is at the bottom of the screen. */
    val flipped: Boolean = false,
) {
    fun pieceAt(square: Square): Piece? = pieces[square]

    /** Screen cell of a square: column 0-8 from the left, row 0-9 from the top. */
    fun cellOf(square: Square): Pair<Int, Int> {
        val f = square.file.toInt()
        val r = square.rank.toInt()
        return if (flipped) (8 - f) to r else f to (9 - r)
    }

    /** The square in a screen cell, or null outside the board. */
    fun squareAt(column: Int, row: Int): Square? {
        if (column !in 0..8 || row !in 0..9) return null
        return if (flipped) sq(8 - column, row) else sq(column, 9 - row)
    }

    /**
     * A tap on [square] by the player of [mover] (null: not their turn). [legalFrom] gives
     * the legal moves of the piece on a square. Returns the new board and what happened.
     */
    fun tap(square: Square, mover: Color?, legalFrom: (Square) -> List<Move>): Pair<BoardModel, TapResult> {
        if (mover == null) {
            return if (selected != null) clearSelection() to TapResult.Cleared else this to TapResult.Ignored
        }
        if (selected != null && square in targets) {
            return clearSelection() to TapResult.Chosen(Move(selected, square))
        }
        val piece = pieces[square]
        if (piece != null && piece.color == mover && square != selected) {
            val targets = legalFrom(square).filter { it.from == square }.map { it.to }.toSet()
            return copy(selected = square, targets = targets) to TapResult.Selected(square)
        }
        return if (selected != null) clearSelection() to TapResult.Cleared else this to TapResult.Ignored
    }

    fun clearSelection(): BoardModel = copy(selected = null, targets = emptySet())

    companion object {
        /** The board of [game] (its pieces and the king in check). */
        fun of(game: Game, flipped: Boolean, lastMove: Move? = null): BoardModel {
            val pieces = game.pieces().associate { it.square to it.piece }
            val status = game.status()
            val checked = if (status.inCheck) {
                pieces.entries.firstOrNull { (_, p) -> p.kind == PieceKind.KING && p.color == status.sideToMove }?.key
            } else {
                null
            }
            return BoardModel(pieces = pieces, lastMove = lastMove, checkedKing = checked, flipped = flipped)
        }
    }
}
