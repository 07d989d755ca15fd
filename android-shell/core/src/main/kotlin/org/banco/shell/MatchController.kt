// A networked game with a nearby player: holds Rust's Match, hops its events to the UI
// thread, reads the ready-to-draw MatchState after each, plays sounds, and shows the
// promotion picker. The pairing code, proposals, turns, undo and draw offers, the banner
// while the link is down, the result texts and the clocks (MatchState.clockFaces, and
// offeredClock for the accept prompt) all come from Rust; while a clock runs the controller
// reads the state again when its text changes (ClockFaces.nextChangeMs), so the screen
// counts down, and shows the flag fall, without a move. Over Bluetooth, the BleGate's banner
// (Bluetooth off, permission withdrawn) is shown while the adapter is unusable; the match
// resumes by itself when it is back.
package org.banco.shell

import org.banco.BancoException
import org.banco.BleGuest
import org.banco.BlePeripheral
import org.banco.LobbyPeer
import org.banco.Match
import org.banco.MatchEvent
import org.banco.MatchListener
import org.banco.MatchOffer
import org.banco.MatchPhase
import org.banco.MatchState
import org.banco.Move
import org.banco.NearbyPlayer
import org.banco.NearbyTransport
import org.banco.PieceKind
import org.banco.PromotionChoice
import org.banco.TapResult
import org.banco.boardGames
import org.banco.raceOffer
import org.banco.Color
import org.banco.RaceSettings
import org.banco.RaceState
import org.banco.LinesTap
import org.banco.LinesTurn
import org.banco.RaceUpdate

class MatchController private constructor(
    private val ui: UiDispatcher,
    private val sound: SoundPlayer,
    /** Called with the device identity and remembered players after a confirmation: store the bytes privately. */
    private val onTrust: (ByteArray) -> Unit,
) : MatchListener {
    data class State(
        /** Rust's state, drawn as it is; null until the match has said something. */
        val match: MatchState? = null,
        /** An action of this player's that was refused ("it is not your turn"). */
        val error: String? = null,
        /** A host: where the guest can come from (the LAN, Bluetooth: Rust's Match.hosting); empty for a guest. */
        val openOn: List<NearbyTransport> = emptyList(),
        /**
         * About Bluetooth: a host's reason for not being open over it, or, mid-game, why the
         * adapter is unusable (the match resumes when it is back); null when all is well.
         */
        val bluetooth: String? = null,
    ) {
        /**
         * A remembered player came with a different key (a reinstall, or someone impersonating
         * them), in Rust's words: show it in a dialog the player must close ([clearKeyWarning]).
         */
        val keyWarning: String? get() = match?.keyWarning

        /** Jieqi: the last move's reveal in Rust's words ("cannon h2 revealed: rook"), until the next move. */
        val announcement: String? get() = match?.lastMove?.announcement

        val phase: MatchPhase get() = match?.phase ?: MatchPhase.CONNECTING

        /** A pawn reaches the last rank: offer these pieces, then call [choosePromotion]. */
        val promotion: PromotionChoice? get() = match?.takeIf { it.phase != MatchPhase.CLOSED }?.board?.promotion

        /** The one-off text to show: a refusal here, else the match's own notice. */
        val notice: String? get() = error ?: match?.notice

        /** The Lines race, once one was accepted: both boards, scores, time left, the result. */
        val race: RaceState? get() = match?.race
    }

    /** The Lines race's picked ball on our board (ringed). */
    val raceSelected = Observable<Int?>(null)

    /** Our last race move's walk along its path, to animate. */
    val raceRun = Observable<BallRun?>(null)

    val state = Observable(State())
    private var match: Match? = null
    /** Stops following the gate's banner. */
    private var unobserveGate: (() -> Unit)? = null
    /** Cancels the pending [tick] of a running clock; only the latest one scheduled runs. */
    private var cancelTick: (() -> Unit)? = null
    private var tickGeneration = 0L

    /** The player saw the same [code] on both phones (the code the dialog showed: a newer one is refused). */
    fun confirmCode(code: String) = act { it.confirmCode(code) }
    fun rejectCode() = act { it.rejectCode() }
    /** Host: take connections again after several codes nobody confirmed. */
    fun reopen() = act { it.reopen() }
    fun propose(offer: MatchOffer) = act { it.propose(offer) }

    /**
     * Proposes the game [settings] choose (its game, the player's colour, rules and clock:
     * [Settings.matchOffer]) after a game or between games, from either side: the other player
     * gets the accept prompt.
     */
    fun propose(settings: Settings) = propose(settings.matchOffer())

    /**
     * The game just played again: a board game with the colours swapped (Rust keeps the game,
     * rules, start and clock), a Lines race anew with its options (a new seed): "another game"
     * and "race again".
     */
    fun proposeRematch() = act { it.proposeRematch() }

    /**
     * Accepts the proposal numbered [id] (`MatchState.proposalId`, the one shown) and no other:
     * one the other player replaced since is refused (the error in the state), nothing accepted.
     */
    fun acceptOffer(id: ULong) = act { it.acceptOffer(id) }
    fun declineProposal() = act { it.declineProposal() }
    fun requestUndo() = act { it.requestUndo() }
    fun replyUndo(accept: Boolean) = act { it.replyUndo(accept) }
    fun offerDraw() = act { it.offerDraw() }
    fun replyDraw(accept: Boolean) = act { it.replyDraw(accept) }
    fun claimDraw() = act { it.claimDraw() }
    fun resign() = act { it.resign() }
    fun flip() = act { it.flip() }
    fun play(move: Move) = act { it.play(move) }

    /**
     * The record of the match's game, running or finished, in the one save format (Rust's,
     * with how it ended: a resignation or a loss on time is kept), to save ([MatchRecords])
     * or share ([MatchRecords.pgn]); null (and the reason as the notice) before a board game.
     */
    fun saved(): ByteArray? {
        var bytes: ByteArray? = null
        act { m -> m.game().use { bytes = it.save() } }
        return bytes
    }

    /** Reads the state again. The controller calls it itself whenever a running clock's text changes. */
    fun tick() = refresh()

    /** Proposes a Lines race (the other player accepts it like any proposal). */
    fun proposeRace(settings: RaceSettings, color: Color = Color.RED) = act { it.proposeRace(settings, color) }

    /** Resigns the race (the other player wins). */
    fun raceResign() = act { it.raceResign() }

    /**
     * A tap on cell [cell] of our race board: Rust picks a ball, picks another, puts it down,
     * or moves the picked one (the turn, returned); a cell out of reach is the notice.
     */
    fun raceTap(cell: Int): LinesTurn? {
        if (cell !in linesCells) return null
        var tap: LinesTap? = null
        act { tap = it.raceTap(cell.toUByte()) }
        raceSelected.value = match?.raceSelected()?.toInt()
        return when (val t = tap) {
            is LinesTap.Moved -> t.turn.also { raceRun.value = BallRun(it) }
            is LinesTap.Unreachable -> null.also { state.value = state.value.copy(error = t.message) }
            else -> null
        }
    }

    /** A tap on a screen cell (column from the left, row from the top): what it did, null if refused. */
    fun tap(column: Int, row: Int): TapResult? {
        if (column !in 0..255 || row !in 0..255) return null
        var result: TapResult? = null
        act { result = it.tap(column.toUByte(), row.toUByte()) }
        return result
    }

    /** The piece chosen in the promotion picker. */
    fun choosePromotion(kind: PieceKind) = act { it.choosePromotion(kind) }

    /** The promotion picker was dismissed: nothing is played and the pawn is deselected. */
    fun cancelPromotion() = act { it.clearSelection() }

    /** The changed-key warning was read and closed. */
    fun clearKeyWarning() = act { it.clearKeyWarning() }

    /** The notice was shown. */
    fun clearNotice() {
        state.value = state.value.copy(error = null)
        act { it.clearNotice() }
    }

    /**
     * Leaves the match (the other device is told; a game in progress is resigned) and frees it.
     * Returns at once: Rust delivers the resignation in the background, so the UI thread may call it.
     */
    fun leave() {
        val m = match ?: return
        runCatching { m.leave() }
        val last = runCatching { m.state() }.getOrNull() ?: state.value.match
        match = null
        unobserveGate?.invoke()
        unobserveGate = null
        cancelTick?.invoke()
        cancelTick = null
        tickGeneration++
        m.destroy()
        state.value = state.value.copy(
            match = last?.copy(phase = MatchPhase.CLOSED, banner = null, closedReason = last.closedReason ?: "You left"),
        )
    }

    /** Runs an action and shows the state after it; a refusal becomes the notice. */
    private fun act(block: (Match) -> Unit) {
        val m = match ?: return
        try {
            block(m)
        } catch (e: BancoException) {
            state.value = state.value.copy(error = readable(e))
        }
        refresh()
    }

    private fun refresh() {
        val m = match ?: return
        val s = try {
            m.state()
        } catch (e: BancoException) {
            state.value = state.value.copy(error = readable(e))
            return
        }
        state.value = state.value.copy(match = s)
        scheduleTick(s)
    }

    /** While a clock runs, reads the state again when its text changes (Rust says when). */
    private fun scheduleTick(s: MatchState) {
        cancelTick?.invoke()
        cancelTick = null
        val generation = ++tickGeneration
        val wait = s.clockFaces?.nextChangeMs ?: return
        cancelTick = ui.postDelayed(wait.toLong()) {
            if (generation == tickGeneration) {
                cancelTick = null
                refresh()
            }
        }
    }

    // MatchListener: Rust's match-events thread; everything happens on the UI thread.
    override fun onEvent(event: MatchEvent) = ui.post {
        if (match == null) return@post
        when (event) {
            is MatchEvent.MovePlayed -> sound.play(soundOf(event.played))
            is MatchEvent.GameOver -> sound.play(Sound.GAME_OVER)
            is MatchEvent.Race -> if (event.update is RaceUpdate.Over) sound.play(Sound.GAME_OVER)
            // Rust's trust after a confirmed code, and again when the match closes (a host
            // that turned this device away after its player confirmed is forgotten then).
            is MatchEvent.PeerVerified, is MatchEvent.Closed ->
                runCatching { match?.exportTrust() }.getOrNull()?.let(onTrust)
            else -> {}
        }
        refresh()
    }

    companion object {
        /**
         * Hosts a match on [address] (`0.0.0.0:7368` on a phone; `127.0.0.1:0` in tests),
         * advertised on the LAN if [advertise], offering every board game and proposing
         * [Settings.game] with the host playing [Settings.color], with [Settings.clock];
         * with [race], a Lines race of the settings' race options instead ([offerOf]).
         */
        fun host(
            ui: UiDispatcher, settings: Settings, address: String, advertise: Boolean, sound: SoundPlayer = SoundPlayer.SILENT,
            trust: ByteArray? = null, onTrust: (ByteArray) -> Unit = {}, race: Boolean = false,
        ): MatchController = open(ui, sound, onTrust) {
            Match.host(settings.playerName, address, advertise, boardGames(), offerOf(settings, race), it, trust)
        }

        /**
         * What a host proposes: [Settings.matchOffer] (the game, its rules, the clock), or, with [race],
         * Rust's offer of a Lines race ([raceOffer]) with the settings' start balls, time limit and
         * preview ([Settings.raceSettings]); the host's colour names its board. Either is hosted
         * with the board games as offers (Rust offers the race with them).
         */
        private fun offerOf(settings: Settings, race: Boolean): MatchOffer =
            if (race) raceOffer(settings.raceSettings(), settings.color) else settings.matchOffer()

        /**
         * [host], and over Bluetooth LE at the same time through [peripheral] (the shell's GATT
         * server): one match, so the lobby shows the host once and the guest comes whichever
         * way it found it. Without [peripheral] ([bluetoothUnavailable] says why), or when it
         * cannot start, Rust hosts on the LAN alone and the state says why ([State.bluetooth]).
         * With [race], the host proposes a Lines race, as [host] does.
         */
        fun hostNearby(
            ui: UiDispatcher, settings: Settings, address: String, advertise: Boolean, peripheral: BlePeripheral?,
            bluetoothUnavailable: String?, gate: BleGate?, sound: SoundPlayer = SoundPlayer.SILENT,
            trust: ByteArray? = null, onTrust: (ByteArray) -> Unit = {}, race: Boolean = false,
        ): MatchController = open(ui, sound, onTrust, gate) {
            Match.hostNearby(
                settings.playerName, address, advertise, peripheral, bluetoothUnavailable, boardGames(),
                offerOf(settings, race), it, trust,
            )
        }

        /**
         * Joins a player of the nearby list over its preferred transport (the LAN when it was
         * seen there, else Bluetooth through [guest]).
         */
        fun joinNearby(
            ui: UiDispatcher, name: String, player: NearbyPlayer, guest: BleGuest?, gate: BleGate?,
            sound: SoundPlayer = SoundPlayer.SILENT, trust: ByteArray? = null, onTrust: (ByteArray) -> Unit = {},
        ): MatchController {
            val overBluetooth = player.preferred == NearbyTransport.BLE
            return open(ui, sound, onTrust, gate.takeIf { overBluetooth }) { Match.joinNearby(name, player, guest, it, trust) }
        }

        /**
         * Opens a host on [address] (`0.0.0.0:7368`) through [open]; when that port is taken
         * (another app, a match still closing), on any free port instead: the lobby advertises
         * the port it got, and the host's status shows the address.
         */
        fun <T> onFreePortIfTaken(address: String, open: (String) -> T): T = try {
            open(address)
        } catch (e: BancoException.Network) {
            open(address.substringBeforeLast(':') + ":0")
        }

        /**
         * Joins the host at [address] (`192.168.1.20:7368`). [trust] is what [onTrust] stored last time
         * (a remembered host then skips the code); null uses a throwaway identity.
         */
        fun join(
            ui: UiDispatcher, name: String, address: String, sound: SoundPlayer = SoundPlayer.SILENT,
            trust: ByteArray? = null, onTrust: (ByteArray) -> Unit = {},
        ): MatchController = open(ui, sound, onTrust) { Match.join(name, address, it, trust) }

        /** Joins a host found by the lobby. */
        fun joinPeer(
            ui: UiDispatcher, name: String, peer: LobbyPeer, sound: SoundPlayer = SoundPlayer.SILENT,
            trust: ByteArray? = null, onTrust: (ByteArray) -> Unit = {},
        ): MatchController = open(ui, sound, onTrust) { Match.joinPeer(name, peer, it, trust) }

        /** Opens the match ([attach]). */
        private fun open(
            ui: UiDispatcher, sound: SoundPlayer, onTrust: (ByteArray) -> Unit, gate: BleGate? = null,
            make: (MatchListener) -> Match,
        ): MatchController {
            val c = MatchController(ui, sound, onTrust)
            return c.attach(make(c), gate)
        }

        /**
         * [join], off the UI thread: Rust resolves the address (a host name asks the DNS,
         * which can stall offline) on [background], then [done] gets the controller, or the
         * reason it could not start (a `BancoException`), through [ui]. Returns at once.
         * A host that refuses or never answers is the controller's state, as for [join].
         * [PendingJoin.cancel] (the player left before it finished): [done] is never called
         * and the match it made, if any, is left.
         */
        fun joinInBackground(
            ui: UiDispatcher, name: String, address: String, sound: SoundPlayer = SoundPlayer.SILENT,
            trust: ByteArray? = null, onTrust: (ByteArray) -> Unit = {},
            background: (() -> Unit) -> Unit = { block -> Thread(block, "banco-join").apply { isDaemon = true }.start() },
            done: (Result<MatchController>) -> Unit,
        ): PendingJoin {
            val c = MatchController(ui, sound, onTrust)
            val pending = PendingJoin()
            background {
                val made = try {
                    Result.success(Match.join(name, address, c, trust))
                } catch (e: BancoException) {
                    Result.failure(e)
                }
                ui.post {
                    if (pending.cancelled) {
                        made.onSuccess { c.attach(it, null).leave() }
                    } else {
                        done(made.map { c.attach(it, null) })
                    }
                }
            }
            return pending
        }
    }

    /** A join by address under way ([joinInBackground]). */
    class PendingJoin {
        /** The player left before the join finished; read on the UI thread. */
        @Volatile var cancelled = false
            private set

        /** The player left (the lobby, the app): the join's end is ignored and its match left. */
        fun cancel() {
            cancelled = true
        }
    }

    /** Takes [m] (on the UI thread): a host's transports and Bluetooth note are Rust's (Match.hosting). */
    private fun attach(m: Match, gate: BleGate?): MatchController {
        match = m
        val hosting = m.hosting()
        val openOn = hosting?.openOn ?: emptyList()
        state.value = state.value.copy(
            openOn = openOn,
            bluetooth = hosting?.notOpen?.firstOrNull { it.transport == NearbyTransport.BLE }?.reason?.takeIf { it.isNotEmpty() },
        )
        // A host follows the gate only while open over Bluetooth; a guest joining over it always.
        if (gate != null && (hosting == null || NearbyTransport.BLE in openOn)) {
            unobserveGate = gate.observeBanner { banner -> state.value = state.value.copy(bluetooth = banner) }
        }
        refresh()
        return this
    }
}
