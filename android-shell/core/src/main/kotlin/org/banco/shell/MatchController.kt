// A networked game with a nearby player: the pairing code to confirm, the host's proposal,
// moves both ways, undo requests and draw offers, resignation, and the banner shown while the
// connection is down and the match reconnects and resumes.
package org.banco.shell

import org.banco.BancoException
import org.banco.Color
import org.banco.GameStatus
import org.banco.LobbyPeer
import org.banco.Match
import org.banco.MatchEvent
import org.banco.MatchListener
import org.banco.Move
import org.banco.Rules

class MatchController private constructor(
    private val ui: UiDispatcher,
    private val sound: SoundPlayer,
) : MatchListener {
    enum class Phase {
        /** Connecting (guest) or waiting for the guest to connect (host). */
        CONNECTING,

        /** Host: listening at [State.address], waiting for a guest. */
        LISTENING,

        /** Both phones show [State.code]: ask the player to confirm it matches. */
        VERIFY,

        /** Code confirmed here; waiting for the other phone (its confirmation, the proposal). */
        WAITING,

        /** Guest: the host proposes a game; accept or decline. */
        PROPOSED,
        PLAYING,
        OVER,
        CLOSED,
    }

    data class State(
        val phase: Phase = Phase.CONNECTING,
        val address: String = "",
        val code: String? = null,
        val peerName: String? = null,
        val myColor: Color? = null,
        val rules: Rules? = null,
        val board: BoardModel = BoardModel(),
        val status: GameStatus? = null,
        /** Shown over the board while the connection is down ("Reconnecting…"). */
        val banner: String? = null,
        /** The other player asks to take back to this ply: answer with [replyUndo]. */
        val undoRequest: UInt? = null,
        /** The other player offers a draw: answer with [replyDraw]. */
        val drawOffered: Boolean = false,
        /** A one-off notice (offer declined, the other phone misbehaved, an error). */
        val notice: String? = null,
        val result: String? = null,
        val closedReason: String? = null,
        /** Moves so far in Chinese notation. */
        val moves: List<String> = emptyList(),
    ) {
        val myTurn: Boolean
            get() = phase == Phase.PLAYING && banner == null && myColor != null && status?.sideToMove == myColor
    }

    val state = Observable(State())
    private var match: Match? = null

    fun confirmCode() = act { it.confirmCode(); state.value = state.value.copy(phase = Phase.WAITING) }
    fun rejectCode() = act { it.rejectCode() }
    fun acceptProposal() = act { it.acceptProposal(); state.value = state.value.copy(phase = Phase.WAITING) }
    fun declineProposal() = act { it.declineProposal() }
    fun requestUndo() = act { it.requestUndo() }
    fun replyUndo(accept: Boolean) = act { it.replyUndo(accept); state.value = state.value.copy(undoRequest = null) }
    fun offerDraw() = act { it.offerDraw() }
    fun replyDraw(accept: Boolean) = act { it.replyDraw(accept); state.value = state.value.copy(drawOffered = false) }
    fun resign() = act { it.resign() }

    fun play(move: Move) = act { it.play(move) }

    fun tap(square: org.banco.Square) {
        val m = match ?: return
        val s = state.value
        val mover = if (s.myTurn) s.myColor else null
        val (board, result) = s.board.tap(square, mover) { from -> m.game().use { it.legalMovesFrom(from) } }
        state.value = s.copy(board = board)
        if (result is TapResult.Chosen) play(result.move)
    }

    fun clearNotice() {
        state.value = state.value.copy(notice = null)
    }

    /** Leaves the match (the other phone is told) and frees it. */
    fun leave() {
        val m = match ?: return
        match = null
        runCatching { m.leave() }
        m.close()
        state.value = state.value.copy(phase = Phase.CLOSED, banner = null, closedReason = state.value.closedReason ?: "You left")
    }

    private fun act(block: (Match) -> Unit) {
        val m = match ?: return
        try {
            block(m)
        } catch (e: BancoException) {
            state.value = state.value.copy(notice = readable(e))
        }
    }

    // MatchListener: called on Rust's match-events thread; everything happens on the UI thread.
    override fun onEvent(event: MatchEvent) = ui.post { handle(event) }

    /** Applies one match event (public for tests that feed events, e.g. a lost connection). */
    fun handle(event: MatchEvent) {
        val s = state.value
        if (s.phase == Phase.CLOSED && event !is MatchEvent.Closed) return
        state.value = when (event) {
            is MatchEvent.Listening -> s.copy(phase = Phase.LISTENING, address = event.address)
            is MatchEvent.Connected ->
                if (s.phase == Phase.PLAYING || s.phase == Phase.OVER) s.copy(banner = null) else s.copy(phase = Phase.CONNECTING)
            is MatchEvent.VerifyCode -> s.copy(phase = Phase.VERIFY, code = event.code, peerName = event.peerName)
            is MatchEvent.PeerVerified ->
                if (s.phase == Phase.PLAYING || s.phase == Phase.OVER) {
                    s.copy(banner = null, peerName = event.peerName)
                } else {
                    s.copy(phase = Phase.WAITING, peerName = event.peerName)
                }
            is MatchEvent.PeerKeyChanged -> s.copy(
                notice = "Warning: ${event.peerName} comes with a different key than last time. Compare the code carefully.",
            )
            is MatchEvent.Proposed -> s.copy(phase = Phase.PROPOSED, myColor = event.yourColor, rules = event.rules)
            is MatchEvent.ProposalDeclined -> s.copy(notice = "The other player declined the game")
            is MatchEvent.Started -> refreshed(
                s.copy(phase = Phase.PLAYING, myColor = event.yourColor, rules = event.rules, banner = null),
                lastMove = null,
            )
            is MatchEvent.MovePlayed -> {
                sound.play(soundOf(event.played))
                refreshed(s.copy(banner = null, drawOffered = false), lastMove = event.played.played)
            }
            is MatchEvent.UndoRequested -> s.copy(undoRequest = event.toPly)
            is MatchEvent.UndoDeclined -> s.copy(notice = "The other player declined to take back")
            is MatchEvent.Undone -> refreshed(s.copy(undoRequest = null), lastMove = null)
            is MatchEvent.DrawOffered -> s.copy(drawOffered = true)
            is MatchEvent.DrawDeclined -> s.copy(notice = "The other player declined the draw")
            is MatchEvent.GameOver -> {
                sound.play(Sound.GAME_OVER)
                refreshed(
                    s.copy(phase = Phase.OVER, result = resultText(event.outcome, s.myColor, event.text), undoRequest = null, drawOffered = false),
                    lastMove = s.board.lastMove,
                )
            }
            is MatchEvent.Disconnected -> s.copy(banner = "Connection lost. Reconnecting…")
            is MatchEvent.Reconnecting -> s.copy(banner = "Connection lost. Reconnecting (attempt ${event.attempt})…")
            is MatchEvent.PeerProblem -> s.copy(notice = event.message)
            is MatchEvent.Closed -> s.copy(phase = Phase.CLOSED, banner = null, closedReason = s.closedReason ?: event.reason)
        }
    }

    private fun refreshed(s: State, lastMove: Move?): State {
        val m = match ?: return s
        return try {
            m.game().use { g ->
                s.copy(
                    board = BoardModel.of(g, flipped = s.myColor == Color.BLACK, lastMove = lastMove),
                    status = g.status(),
                    moves = g.historyText(org.banco.Notation.CHINESE),
                )
            }
        } catch (e: BancoException) {
            s.copy(notice = readable(e))
        }
    }

    companion object {
        /**
         * Hosts a match on [address] (`0.0.0.0:7368` on a phone; `127.0.0.1:0` in tests),
         * advertised on the LAN if [advertise]. The host plays [Settings.color].
         */
        fun host(ui: UiDispatcher, settings: Settings, address: String, advertise: Boolean, sound: SoundPlayer = SoundPlayer.SILENT): MatchController {
            val c = MatchController(ui, sound)
            c.match = Match.host(settings.playerName, address, advertise, settings.color, settings.rules.repetition, c)
            return c
        }

        /** Joins the host at [address] (`192.168.1.20:7368`). */
        fun join(ui: UiDispatcher, name: String, address: String, sound: SoundPlayer = SoundPlayer.SILENT): MatchController {
            val c = MatchController(ui, sound)
            c.match = Match.join(name, address, c)
            return c
        }

        /** Joins a host found by the lobby. */
        fun joinPeer(ui: UiDispatcher, name: String, peer: LobbyPeer, sound: SoundPlayer = SoundPlayer.SILENT): MatchController {
            val c = MatchController(ui, sound)
            c.match = Match.joinPeer(name, peer, c)
            return c
        }
    }
}
