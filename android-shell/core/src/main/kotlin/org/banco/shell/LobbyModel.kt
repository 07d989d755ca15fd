// The nearby-players list and the ways into a match with one of them. The list is Rust's
// NearbyLobby: players found on the LAN (mDNS) and over Bluetooth LE, each once (matched by
// key fingerprint), with the transports it was seen on, the LAN preferred. Joining goes
// through Match.joinNearby (the LAN when the player is there, else Bluetooth); hosting goes
// through Match.hostNearby (one match, one key), handed the peripheral when the BleGate says
// Bluetooth is usable, else the gate's reason: Rust opens what it can (the LAN alone when the
// peripheral cannot start) and says where it is open and why not elsewhere. When Bluetooth
// cannot be used (off, permission missing or refused, unsupported) the state says why, in
// Rust's words, and the lobby works on the LAN alone.
package org.banco.shell

import org.banco.BancoException
import org.banco.BleCentral
import org.banco.BleGuest
import org.banco.BlePeripheral
import org.banco.BleRole
import org.banco.BleStep
import org.banco.NearbyListener
import org.banco.NearbyLobby
import org.banco.NearbyPlayer
import org.banco.NearbyTransport

/** Held while discovering (Android: a WifiManager.MulticastLock, without which mDNS hears nothing). */
interface MulticastGuard {
    fun acquire()
    fun release()

    companion object {
        val NONE = object : MulticastGuard {
            override fun acquire() {}
            override fun release() {}
        }
    }
}

/**
 * The phone's Bluetooth, for the lobby: the [gate] (permissions, adapter state) and the
 * platform radios (AndroidBle.kt: `AndroidBleCentral`, `AndroidBlePeripheral`), made only once
 * the gate allows them.
 */
class NearbyBluetooth(
    val gate: BleGate,
    val central: () -> BleCentral,
    val peripheral: () -> BlePeripheral,
)

class LobbyModel(
    private val ui: UiDispatcher,
    private val multicast: MulticastGuard = MulticastGuard.NONE,
    /** Null: the LAN only (no Bluetooth on this build or device). */
    private val bluetooth: NearbyBluetooth? = null,
) : NearbyListener {
    data class State(
        /** Players around, by name; each once, with where it was seen ([transportsText]). */
        val players: List<NearbyPlayer> = emptyList(),
        val discovering: Boolean = false,
        val error: String? = null,
        /** Why players are not looked for over Bluetooth (off, permission…); null when they are. */
        val bluetooth: String? = null,
        /** What the player can do about [bluetooth] (ask for permissions, open settings, turn it on). */
        val bluetoothStep: BleStep? = null,
    )

    val state = Observable(State())
    private var lobby: NearbyLobby? = null
    /** The guest's radio, made once the gate allowed it; kept for the matches joined over it. */
    private var guest: BleGuest? = null

    /**
     * Starts discovery with the lobby [open] makes from the Bluetooth radio (null when
     * Bluetooth cannot be used now): `{ NearbyLobby(listOf(), true, it) }` on a phone.
     */
    fun start(open: (BleGuest?) -> NearbyLobby) {
        if (lobby != null) return
        multicast.acquire()
        try {
            val l = open(guestRadio())
            l.browse(this)
            lobby = l
            state.value = state.value.copy(discovering = true, error = null)
        } catch (e: BancoException) {
            multicast.release()
            state.value = state.value.copy(discovering = false, error = readable(e))
        }
    }

    /** Stops discovery (leaving the screen); the list is kept until the next start. */
    fun stop() {
        val l = lobby ?: return
        lobby = null
        runCatching { l.stop() }
        l.close()
        multicast.release()
        state.value = state.value.copy(discovering = false)
    }

    /** Bluetooth may have become usable (permission granted, turned on): discovery starts again. */
    fun restart(open: (BleGuest?) -> NearbyLobby) {
        stop()
        start(open)
    }

    /**
     * Back in the foreground, or the adapter changed: when Bluetooth's readiness is not what
     * the state shows (allowed or turned on in the system's screens, or another reason now),
     * discovery starts again with [open]; otherwise nothing happens. Then a "tap to fix"
     * always does what the present state needs.
     */
    fun recheck(open: (BleGuest?) -> NearbyLobby) {
        val bt = bluetooth ?: return
        if (lobby == null) return
        val ready = bt.gate.check(BleRole.GUEST)
        val step = ready.step.takeIf { it != BleStep.READY }
        val shown = state.value
        if (step == shown.bluetoothStep && (step != null || shown.bluetooth == null)) return
        restart(open)
    }

    /** Joins [player] over its preferred transport: a match controller whose first events are the pairing code. */
    fun join(
        player: NearbyPlayer, settings: Settings, sound: SoundPlayer = SoundPlayer.SILENT,
        trust: ByteArray? = null, onTrust: (ByteArray) -> Unit = {},
    ): MatchController =
        MatchController.joinNearby(ui, settings.playerName, player, guest, bluetooth?.gate, sound, trust, onTrust)

    /**
     * Hosts on [address] (`0.0.0.0:7368` on a phone), advertised on the LAN if [advertise],
     * and over Bluetooth too when the gate allows it and the peripheral starts; the
     * controller's state says where Rust opened it (`openOn`) and, when not over Bluetooth,
     * why (`bluetooth`). It proposes [Settings.game], or with [race] a Lines race of the
     * settings' race options (start balls, time limit, preview): a board game and a race are
     * hosted the same way.
     */
    fun host(
        settings: Settings, address: String, advertise: Boolean, sound: SoundPlayer = SoundPlayer.SILENT,
        trust: ByteArray? = null, onTrust: (ByteArray) -> Unit = {}, race: Boolean = false,
    ): MatchController {
        val bt = bluetooth ?: return MatchController.host(ui, settings, address, advertise, sound, trust, onTrust, race)
        val ready = bt.gate.check(BleRole.HOST)
        val peripheral = if (ready.step == BleStep.READY) bt.peripheral() else null
        return MatchController.hostNearby(ui, settings, address, advertise, peripheral, ready.message, bt.gate, sound, trust, onTrust, race)
    }

    /** The guest's radio when the gate allows Bluetooth now, else null with the reason in the state. */
    private fun guestRadio(): BleGuest? {
        val bt = bluetooth ?: return null
        val ready = bt.gate.check(BleRole.GUEST)
        if (ready.step != BleStep.READY) {
            state.value = state.value.copy(bluetooth = ready.message, bluetoothStep = ready.step)
            return null
        }
        val radio = guest ?: try {
            BleGuest(bt.central()).also { guest = it }
        } catch (e: BancoException) {
            state.value = state.value.copy(bluetooth = readable(e), bluetoothStep = null)
            return null
        }
        state.value = state.value.copy(bluetooth = null, bluetoothStep = null)
        return radio
    }

    // NearbyListener: Rust's lobby threads; hop to the UI thread.
    override fun onPlayerFound(player: NearbyPlayer) = ui.post { upsert(player) }
    override fun onPlayerUpdated(player: NearbyPlayer) = ui.post { upsert(player) }
    override fun onPlayerLost(key: String) = ui.post {
        state.value = state.value.copy(players = state.value.players.filter { it.key != key })
    }
    override fun onError(message: String) = ui.post { state.value = state.value.copy(error = message) }

    companion object {
        /** The games a player offers, as the list shows them ("Xiangqi, Chess"). */
        fun gamesText(player: NearbyPlayer): String = player.games.joinToString(", ") { it.label }

        /** Where a player was seen, as the list shows it ("LAN · Bluetooth"). */
        fun transportsText(player: NearbyPlayer): String = player.transports.joinToString(" · ") { it.label }
    }

    private fun upsert(player: NearbyPlayer) {
        val others = state.value.players.filter { it.key != player.key }
        state.value = state.value.copy(players = (others + player).sortedWith(compareBy({ it.name.lowercase() }, { it.key })))
    }
}

/** A transport as the lobby and the hosting screen name it. */
val NearbyTransport.label: String
    get() = when (this) {
        NearbyTransport.LAN -> "LAN"
        NearbyTransport.BLE -> "Bluetooth"
    }
