// The clock of a networked game in words: the clock a proposal offers, shown in the accept
// prompt before the player agrees to it ("5:00 + 3s"), and both running clocks during play
// ("0:42"; tenths under ten seconds, "0:09.4"). Rust keeps the time; these only format what
// MatchState says, read again by MatchController.tick() once a second or so while playing.
package org.banco.shell

import org.banco.Color
import org.banco.MatchClock
import org.banco.MatchPhase

/** A duration as `m:ss` (`h:mm:ss` from an hour), rounded down to the second. */
fun durationText(ms: Long): String {
    val s = maxOf(ms, 0L) / 1000
    val (h, m, sec) = Triple(s / 3600, s / 60 % 60, s % 60)
    return if (h > 0) "%d:%02d:%02d".format(h, m, sec) else "%d:%02d".format(s / 60, sec)
}

/** A clock's remaining time: `m:ss`, with tenths under ten seconds (`0:09.4`), never negative. */
fun remainingText(ms: Long): String {
    val left = maxOf(ms, 0L)
    return if (left < 10_000) "0:%02d.%d".format(left / 1000, left / 100 % 10) else durationText(left)
}

/** The clock a game is offered with: `5:00 + 3s`, `10:00` without increment, `untimed` for none. */
fun clockText(clock: MatchClock?): String {
    clock ?: return "untimed"
    val base = durationText(clock.baseMs.toLong())
    val inc = clock.incrementMs.toLong()
    if (inc == 0L) return base
    val incText = if (inc % 1000 == 0L) "${inc / 1000}" else "%d.%d".format(inc / 1000, inc % 1000 / 100)
    return "$base + ${incText}s"
}

/** Both clocks of a timed game from this player's side, and which one runs. */
data class ClockFaces(val you: String, val opponent: String, val yourClockRuns: Boolean, val opponentClockRuns: Boolean)

/** The clock of the proposal to accept, for the prompt (`untimed` if it has none); null without a proposal. */
val MatchController.State.offeredClock: String?
    get() = match?.takeIf { it.phase == MatchPhase.PROPOSED }?.proposal?.let { clockText(it.clock) }

/** The running clocks of a timed game (the one of the side to move runs while playing); null when untimed. */
val MatchController.State.clocks: ClockFaces?
    get() {
        val m = match ?: return null
        val c = m.clocks?.takeIf { it.size == 2 } ?: return null
        val me = m.yourColor ?: return null
        // Rust lists [first, second] player: red (white in chess) first.
        val (mine, theirs) = if (me == Color.RED) c[0] to c[1] else c[1] to c[0]
        val playing = m.phase == MatchPhase.PLAYING && m.outcome == null
        val mineRuns = playing && m.sideToMove == me
        val theirsRuns = playing && m.sideToMove != null && m.sideToMove != me
        return ClockFaces(remainingText(mine.toLong()), remainingText(theirs.toLong()), mineRuns, theirsRuns)
    }
