// Sharing a game and a position, and opening a shared game. Rust writes and reads the record
// (PGN for chess, the xqbase dialect for xiangqi; the first bad move named by number) and draws
// the pictures (SVG, and PNG with built-in glyphs) and writes the record's tags (the players on
// their sides, PGN's date: pgnVsComputerTags); this file only passes it the names and the player's
// local date (ISO, `LocalDate.now()` at the call sites, as iOS's current time zone) and hands
// text and bytes to the platform's share sheet; the slow parts (a PNG, a record read and
// parsed) run off the UI thread through a [Worker].
package org.banco.shell

import org.banco.BancoException
import org.banco.Color
import org.banco.Game
import org.banco.GameKind
import org.banco.PgnImportException
import org.banco.PgnTag
import org.banco.VsState
import org.banco.renderFenSvg
import org.banco.pgnImportErrorText
import org.banco.pgnFileName
import org.banco.pgnVsComputerTags
import org.banco.renderPng
import java.time.LocalDate

/** A picture of a position: the SVG Rust drew and its PNG, with a file name to share it by. */
class Picture(val svg: String, val png: ByteArray, val fileName: String) {
    companion object {
        /** The PNG of [svg] at [scale] (2: sharp on a phone); [name] without extension. */
        fun ofSvg(svg: String, scale: Float, name: String): Picture = Picture(svg, renderPng(svg, scale), "$name.png")
    }
}

object GameShare {
    /** A game opened from a shared record, ready for [GameController.openSaved]. */
    class Opened(
        val kind: GameKind,
        /** The game in the one save format (every move, the start position). */
        val saved: ByteArray,
        /** The moves it holds. */
        val plies: Int,
        /** Whose move it is: the player takes this side to go on. */
        val sideToMove: Color,
    )

    /**
     * The PGN of the game on screen ([GameController.saved]): the player and the computer
     * named on their sides, the date of [date].
     */
    fun pgn(saved: ByteArray, vs: VsState, playerName: String, date: LocalDate): String =
        Game.load(saved).use { g -> g.toPgn(tags(vs, playerName, date)) }

    /**
     * The tags of a game against the computer: Rust names the player and the computer on their
     * sides, adds who played the computer and at which level (so that the record opens again
     * with both) and writes PGN's date.
     */
    fun tags(vs: VsState, playerName: String, date: LocalDate): List<PgnTag> =
        pgnVsComputerTags(vs.kind, date.toString(), vs.human, playerName, vs.level)

    /** The file name to share a record by, Rust's ("banco-xiangqi-2026-12-02.pgn"). */
    fun fileName(kind: GameKind, date: LocalDate): String = pgnFileName(kind, date.toString())

    /**
     * Opens a shared record: the game, or the reason it cannot be opened (the first bad move by
     * its number, a position that is not legal, not PGN at all).
     */
    fun open(text: String): Result<Opened> = try {
        Game.fromPgn(text).use { g ->
            val status = g.status()
            Result.success(Opened(g.kind(), g.save(), status.ply.toInt(), status.sideToMove))
        }
    } catch (e: PgnImportException) {
        Result.failure(IllegalArgumentException("This game cannot be opened: ${pgnImportErrorText(e)}", e))
    } catch (e: BancoException) {
        Result.failure(IllegalArgumentException("This game cannot be opened: ${readable(e)}", e))
    }

    /** The picture of the position on screen, its last move marked, turned as on screen. */
    fun picture(vs: VsState, scale: Float = 2f): Picture = Picture.ofSvg(
        renderFenSvg(vs.kind, vs.fen, vs.lastMove?.coordinate, vs.board.flipped),
        scale,
        "banco-${vs.kind.name.lowercase()}",
    )

    /** [picture] drawn off the UI thread by [worker] (a PNG takes a while on a phone); [done] on the UI thread. */
    fun pictureLater(worker: Worker, vs: VsState, scale: Float = 2f, done: (Result<Picture>) -> Unit) =
        worker.run({ picture(vs, scale) }, done)

    /**
     * A shared record read by [read] (a file, perhaps) and opened ([open]) off the UI thread by
     * [worker]; [done] on the UI thread with the game or why it cannot be opened.
     */
    fun openLater(worker: Worker, read: () -> String, done: (Result<Opened>) -> Unit) =
        worker.run({ open(read()).getOrThrow() }, done)
}
