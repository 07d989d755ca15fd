// Built-in mate puzzles (cờ thế): the player moves first and must mate within the given number
// of moves against the AI at full strength.
package org.banco.shell

data class Puzzle(val name: String, val fen: String, val mateIn: Int)

object Puzzles {
    val all: List<Puzzle> = listOf(
        Puzzle("Rook to the side", "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", 1),
        Puzzle("Cannons and rook", "1nb1ka3/4a4/4c4/2p1C4/9/3Rcr3/P8/n3C4/4Apr2/4KA3 w - - 0 1", 5),
        Puzzle("Two horses and a rook", "9/9/3a1k3/9/1N5N1/4R4/1n5r1/9/3K1p3/9 w - - 0 1", 5),
        Puzzle("Horse and pawn", "9/9/4Nk3/3c2p2/3r2P2/3p2B2/3p2r2/4KC3/9/9 w - - 0 1", 5),
    )
}
