// The nearby lobby over Bluetooth LE: a host LobbyModel and a guest LobbyModel in one process
// whose "phones" are joined by test doubles of the platform GATT code (the binding tests'
// PipePeripheral/PipeCentral: what one side sends, the other side's events hear). The guest
// finds the host in the one nearby list (marked Bluetooth), joins it, a move crosses, the
// guest's adapter goes off (the gate's banner) and on again, and the match resumes. Then the
// gate's states as the lobby and the hosting screen show them.
package org.banco.shell.tests

import org.banco.BancoException
import org.banco.BleAdapterState
import org.banco.BleAdvertisement
import org.banco.BleCentral
import org.banco.BleCentralEvents
import org.banco.BleException
import org.banco.BlePeripheral
import org.banco.BlePeripheralEvents
import org.banco.BlePermission
import org.banco.BleService
import org.banco.BleStep
import org.banco.Color
import org.banco.MatchPhase as Phase
import org.banco.NearbyLobby
import org.banco.NearbyPlayer
import org.banco.NearbyTransport
import org.banco.shell.BleGate
import org.banco.shell.LobbyModel
import org.banco.shell.NearbyBluetooth
import org.banco.shell.Settings
import java.util.concurrent.atomic.AtomicInteger
import kotlin.concurrent.thread

private const val HOST_DEVICE = "AA:BB:CC:00:00:01"
private const val GUEST_CENTRAL = "guest-phone"

/** Both phones' radios: what one side sends, the other side's events hear. */
class Air(val mtu: UShort = 23u) {
    @Volatile var hostEvents: BlePeripheralEvents? = null
    @Volatile var guestEvents: BleCentralEvents? = null
    @Volatile var advertised: BleAdvertisement? = null
    val starts = AtomicInteger()
    val centrals = AtomicInteger()
    val host get() = hostEvents!!
    val guest get() = guestEvents!!
}

class PipePeripheral(private val air: Air) : BlePeripheral {
    override fun start(advertisement: BleAdvertisement, events: BlePeripheralEvents) {
        air.starts.incrementAndGet()
        air.advertised = advertisement
        air.hostEvents = events
    }

    override fun notify(central: String, value: ByteArray): Boolean {
        if (central == GUEST_CENTRAL) air.guest.onNotification(HOST_DEVICE, value)
        return true
    }

    override fun disconnect(central: String) {
        air.host.onUnsubscribed(central)
        if (central == GUEST_CENTRAL) air.guest.onDisconnected(HOST_DEVICE)
    }

    override fun stop() {
        air.advertised = null
    }
}

class PipeCentral(private val air: Air) : BleCentral {
    override fun start(events: BleCentralEvents) {
        air.centrals.incrementAndGet()
        air.guestEvents = events
        events.onAdapterState(BleAdapterState.ON)
    }

    override fun scan(service: BleService) {
        val ad = air.advertised ?: return
        if (ad.service == service) air.guest.onDiscovered(HOST_DEVICE, ad.localName)
    }

    override fun stopScan() {}

    override fun readInfo(device: String) {
        val ad = air.advertised
        if (device == HOST_DEVICE && ad != null) air.guest.onInfo(device, ad.info)
        else air.guest.onInfoFailed(device, "GATT error 133")
    }

    override fun connect(device: String) {
        if (device != HOST_DEVICE) throw BleException.Failed("no such device $device")
        thread {
            air.host.onSubscribed(GUEST_CENTRAL, air.mtu)
            air.guest.onConnected(HOST_DEVICE, air.mtu)
        }
    }

    override fun write(device: String, value: ByteArray, withResponse: Boolean): Boolean {
        air.host.onWrite(GUEST_CENTRAL, value)
        return true
    }

    override fun disconnect(device: String) {
        air.guest.onDisconnected(device)
        air.host.onUnsubscribed(GUEST_CENTRAL)
    }
}

/** Android 12+ with every Bluetooth permission granted. */
fun allowed(): FakePermissions = FakePermissions(34).apply {
    held.addAll(listOf(BlePermission.SCAN, BlePermission.CONNECT, BlePermission.ADVERTISE))
}

/** The lobbies of two phones sharing [air], Bluetooth allowed: the host's may advertise, the guest's does not. */
class NearbyLobbies(air: Air, hostUi: TestUi, guestUi: TestUi) {
    val host = LobbyModel(hostUi, bluetooth = NearbyBluetooth(BleGate(allowed(), hostUi), { PipeCentral(air) }, { PipePeripheral(air) }))
    /** The guest's gate, to turn its adapter off and on. */
    val guestGate = BleGate(allowed(), guestUi)
    val guest = LobbyModel(guestUi, bluetooth = NearbyBluetooth(guestGate, { PipeCentral(air) }, { throw AssertionError("the guest does not host") }))
}

fun nearbyTests(s: Suite) {
    s.test("nearby: host and guest models find each other over the Bluetooth double, play, and resume after the adapter was off") {
        val air = Air()
        val hostUi = TestUi()
        val guestUi = TestUi()
        val lobbies = NearbyLobbies(air, hostUi, guestUi)
        val (hostLobby, guestLobby, guestGate) = Triple(lobbies.host, lobbies.guest, lobbies.guestGate)
        val host = hostUi.call { hostLobby.host(Settings(playerName = "An", color = Color.RED), "127.0.0.1:0", advertise = false) }
        lateinit var guest: org.banco.shell.MatchController
        try {
            val listening = hostUi.await(host.state, "listening") { it.phase == Phase.LISTENING }
            eq(listOf(NearbyTransport.LAN, NearbyTransport.BLE), listening.openOn, "open on the LAN and over Bluetooth")
            eq(null, listening.bluetooth)
            check(listening.match!!.address.startsWith("127.0.0.1:")) { listening.match!!.address }
            eq("Banco An", air.advertised?.localName)

            // The guest's one list shows the host once, over Bluetooth.
            guestUi.call { guestLobby.start { NearbyLobby(listOf(), false, it) } }
            val st = guestUi.await(guestLobby.state, "the host listed") { it.players.isNotEmpty() }
            val an = st.players.single()
            eq("An", an.name)
            eq(listOf(NearbyTransport.BLE), an.transports)
            eq(NearbyTransport.BLE, an.preferred)
            eq("Bluetooth", LobbyModel.transportsText(an))
            eq(16, an.fingerprint.length)
            check(st.discovering && st.bluetooth == null) { "$st" }

            guest = guestUi.call { guestLobby.join(an, Settings(playerName = "Binh")) }
            guestUi.call { guestLobby.stop() }
            val hc = hostUi.awaitMatch(host, "host code") { it.phase == Phase.VERIFY }.code!!
            val gc = guestUi.awaitMatch(guest, "guest code") { it.phase == Phase.VERIFY }.code!!
            eq(hc, gc, "both phones show the same code")
            hostUi.call { host.confirmCode(hc) }
            guestUi.call { guest.confirmCode(gc) }
            guestUi.awaitMatch(guest, "the proposal") { it.phase == Phase.PROPOSED }
            guestUi.call { guest.acceptOffer(guest.state.value.match!!.proposalId!!) }
            hostUi.awaitMatch(host, "playing") { it.phase == Phase.PLAYING && it.yourTurn }
            hostUi.tap(host, "h2")
            hostUi.tap(host, "e2")
            eq("炮二平五", guestUi.awaitMatch(guest, "the host's move over Bluetooth") { it.moves.size == 1 }.moves.single())

            // The guest's Bluetooth goes off mid-game: the gate's words; back on, the match resumes.
            air.guest.onAdapterState(BleAdapterState.OFF)
            air.host.onUnsubscribed(GUEST_CENTRAL)
            guestGate.adapterChanged(BleAdapterState.OFF)
            val off = guestUi.await(guest.state, "the Bluetooth banner") { it.bluetooth != null && it.match?.banner != null }
            check(off.bluetooth!!.contains("Bluetooth is off")) { "${off.bluetooth}" }
            air.guest.onAdapterState(BleAdapterState.ON)
            guestGate.adapterChanged(BleAdapterState.ON)
            guestUi.await(guest.state, "resumed", seconds = 60) { it.bluetooth == null && it.match?.banner == null }
            guestUi.awaitMatch(guest, "the guest's turn", seconds = 60) { it.yourTurn && it.phase == Phase.PLAYING }
            guestUi.tap(guest, "h9")
            guestUi.tap(guest, "g7")
            check(hostUi.awaitMatch(host, "a move after resuming", seconds = 60) { it.moves.size == 2 }.yourTurn)
        } finally {
            runCatching { guestUi.call { guest.leave() } }
            hostUi.call { host.leave() }
            guestUi.shutdown()
            hostUi.shutdown()
        }
    }

    s.test("nearby: the gate's states in the lobby and when hosting; one entry per player") {
        val ui = TestUi()
        val air = Air()
        val perms = FakePermissions(34)
        val gate = BleGate(perms, ui)
        val peripherals = AtomicInteger()
        val lobby = LobbyModel(ui, bluetooth = NearbyBluetooth(gate, { PipeCentral(air) }, { peripherals.incrementAndGet(); PipePeripheral(air) }))
        val radios = mutableListOf<Boolean>()
        val open = { g: org.banco.BleGuest? -> radios += g != null; NearbyLobby(listOf(), false, g) }

        // No permission yet: the LAN only, and what to ask for.
        ui.call { lobby.start(open) }
        var st = ui.call { lobby.state.value }
        eq(BleStep.ASK_PERMISSIONS, st.bluetoothStep)
        check(st.discovering && st.bluetooth != null) { "$st" }
        // Back in the app with nothing changed: the lobby checks and leaves discovery alone.
        ui.call { lobby.recheck(open) }
        eq(listOf(false), radios, "not restarted")
        // Refused for good (the player comes back from the prompt): the settings.
        perms.forGood = true
        ui.call { lobby.recheck(open) }
        st = ui.call { lobby.state.value }
        eq(BleStep.OPEN_SETTINGS, st.bluetoothStep)
        check(st.bluetooth!!.contains("system settings")) { "${st.bluetooth}" }
        // Granted, but Bluetooth is off: ask to turn it on; hosting stays on the LAN and says why.
        perms.forGood = false
        perms.held.addAll(listOf(BlePermission.SCAN, BlePermission.CONNECT, BlePermission.ADVERTISE))
        ui.call { gate.adapterChanged(BleAdapterState.OFF) }
        ui.call { lobby.recheck(open) }
        st = ui.call { lobby.state.value }
        eq(BleStep.TURN_ON_BLUETOOTH, st.bluetoothStep)
        check(st.bluetooth!!.contains("Bluetooth is off")) { "${st.bluetooth}" }
        val lanOnly = ui.call { lobby.host(Settings(playerName = "An"), "127.0.0.1:0", advertise = false) }
        var hs = ui.call { lanOnly.state.value }
        eq(listOf(NearbyTransport.LAN), hs.openOn)
        check(hs.bluetooth!!.contains("Bluetooth is off")) { "${hs.bluetooth}" }
        eq(0, peripherals.get(), "no peripheral made while the gate says no")
        ui.call { lanOnly.leave() }
        // On again: Bluetooth is used, its radio made once.
        ui.call { gate.adapterChanged(BleAdapterState.ON) }
        ui.call { lobby.recheck(open) }
        ui.call { lobby.recheck(open) }
        ui.call { lobby.restart(open) }
        st = ui.call { lobby.state.value }
        check(st.bluetooth == null && st.bluetoothStep == null) { "$st" }
        // Each recheck restarted discovery only when the state had changed (turned on: once).
        eq(listOf(false, false, false, true, true), radios, "a radio once the gate allowed it")
        eq(1, air.centrals.get(), "the guest's radio is made once")
        // The same player seen on the LAN after Bluetooth (Rust merged them): one entry, both marks.
        val ble = NearbyPlayer("fp:a1b2", "Chi", listOf(), 3u.toUShort(), "a1b2", listOf(NearbyTransport.BLE), NearbyTransport.BLE, null, "dev-1")
        lobby.onPlayerFound(ble)
        lobby.onPlayerUpdated(ble.copy(transports = listOf(NearbyTransport.LAN, NearbyTransport.BLE), preferred = NearbyTransport.LAN, lan = peer("chi", "Chi")))
        st = ui.await(lobby.state, "the merged entry") { it.players.singleOrNull()?.transports?.size == 2 }
        eq("LAN · Bluetooth", LobbyModel.transportsText(st.players.single()))
        lobby.onPlayerLost("fp:a1b2")
        ui.await(lobby.state, "gone") { it.players.isEmpty() }

        // A peripheral that cannot start after all (no advertising on this phone): the LAN only, with its reason.
        val broken = LobbyModel(ui, bluetooth = NearbyBluetooth(BleGate(allowed(), ui), { PipeCentral(Air()) }, {
            object : BlePeripheral {
                override fun start(advertisement: BleAdvertisement, events: BlePeripheralEvents) =
                    throw BleException.Unsupported("this phone cannot advertise over Bluetooth LE")
                override fun notify(central: String, value: ByteArray) = true
                override fun disconnect(central: String) {}
                override fun stop() {}
            }
        }))
        val host = ui.call { broken.host(Settings(playerName = "An"), "127.0.0.1:0", advertise = false) }
        hs = ui.call { host.state.value }
        eq(listOf(NearbyTransport.LAN), hs.openOn)
        check(hs.bluetooth!!.contains("cannot advertise")) { "${hs.bluetooth}" }
        eq(Phase.LISTENING, hs.phase)
        ui.call { host.leave() }
        // Unsupported adapter: said as such.
        ui.call { gate.adapterChanged(BleAdapterState.UNSUPPORTED) }
        ui.call { lobby.restart(open) }
        eq(BleStep.UNSUPPORTED, ui.call { lobby.state.value }.bluetoothStep)
        ui.call { lobby.stop() }
        ui.shutdown()
    }
}
