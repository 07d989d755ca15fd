// Bluetooth LE across the FFI: BlePeripheral and BleCentral implemented here by test doubles
// that pipe ATT values between a "host phone" and a "guest phone" in one process (the shells
// implement them with BluetoothGattServer/BluetoothGatt). The guest scans and reads the
// host's info, joins, both confirm the same code, a chess game is played to mate over the
// fragment layer (the host's stack refusing every third notification as busy), a stranger
// subscribes meanwhile, the guest's adapter goes off and on again and the match resumes, the
// host re-advertises after its own adapter cycles, and leaving stops the peripheral.
package org.banco.tests

import org.banco.*
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicInteger
import kotlin.concurrent.thread

private const val HOST = "AA:BB:CC:00:00:01"
private const val GUEST = "guest-phone"

/** Both phones' radios: what one side sends, the other side's events hear. */
class Air(val mtu: UShort) {
    @Volatile var hostEvents: BlePeripheralEvents? = null
    @Volatile var guestEvents: BleCentralEvents? = null
    @Volatile var advertised: BleAdvertisement? = null
    val starts = AtomicInteger()
    val stopped = AtomicBoolean()
    val notifies = AtomicInteger()
    val busy = AtomicInteger()
    val writes = AtomicInteger()
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
        if (air.notifies.incrementAndGet() % 3 == 0) {
            // The stack's queue is full: refuse, then say when it drained.
            air.busy.incrementAndGet()
            thread { air.host.onReadyToNotify() }
            return false
        }
        if (central == GUEST) air.guest.onNotification(HOST, value)
        return true
    }

    override fun disconnect(central: String) {
        air.host.onUnsubscribed(central)
        if (central == GUEST) air.guest.onDisconnected(HOST)
    }

    override fun stop() = air.stopped.set(true)
}

class PipeCentral(private val air: Air) : BleCentral {
    override fun start(events: BleCentralEvents) {
        air.guestEvents = events
        events.onAdapterState(BleAdapterState.ON)
    }

    override fun scan(service: BleService) {
        val ad = air.advertised ?: return
        if (ad.service != service) return
        air.guest.onDiscovered("stranger-tv", null)
        air.guest.onDiscovered(HOST, ad.localName)
        air.guest.onDiscovered(HOST, ad.localName)
    }

    override fun stopScan() {}

    override fun readInfo(device: String) {
        val ad = air.advertised
        if (device == HOST && ad != null) air.guest.onInfo(device, ad.info)
        else air.guest.onInfoFailed(device, "GATT error 133")
    }

    override fun connect(device: String) {
        if (device != HOST) throw BleException.Failed("no such device $device")
        thread {
            air.host.onSubscribed(GUEST, 23u)
            air.host.onMtuChanged(GUEST, air.mtu)
            air.guest.onConnected(HOST, air.mtu)
        }
    }

    override fun write(device: String, value: ByteArray, withResponse: Boolean): Boolean {
        air.writes.incrementAndGet()
        air.host.onWrite(GUEST, value)
        return true
    }

    override fun disconnect(device: String) {
        air.guest.onDisconnected(device)
        air.host.onUnsubscribed(GUEST)
    }
}

class QueueScanListener : BleScanListener {
    val found = LinkedBlockingQueue<Result<BlePeer>>()
    override fun onPeerFound(peer: BlePeer) { found += Result.success(peer) }
    override fun onError(message: String) { found += Result.failure(AssertionError(message)) }
    fun next(): Result<BlePeer> = found.poll(10, TimeUnit.SECONDS) ?: throw AssertionError("no scan result in 10 s")
}

fun bleTests(s: Suite) {
    s.test("BLE: a chess match crosses the BlePeripheral/BleCentral foreign traits") {
        val air = Air(23u)
        val hostEvents = QueueMatchListener("host")
        val guestEvents = QueueMatchListener("guest")
        val chess = MatchOffer(GameKind.CHESS, Color.RED, null, null)
        val host = Match.hostBle("An", PipePeripheral(air), listOf(), chess, hostEvents)
        eq("Bluetooth LE", host.address())
        eq(listOf(NearbyTransport.BLE), host.hosting()?.openOn)
        val ad = air.advertised!!
        eq("Banco An", ad.localName)
        eq(bleService(), ad.service)
        eq("becd2551-cd92-414a-b34f-80de7c697371", ad.service.serviceUuid)

        // Scanning lists the host once, with its info; the stranger's unreadable info is an error.
        val radio = BleGuest(PipeCentral(air))
        eq(null, radio.adapterMessage())
        val scan = QueueScanListener()
        radio.scan(scan)
        val results = listOf(scan.next(), scan.next())
        val peer = results.single { it.isSuccess }.getOrThrow()
        val err = results.single { it.isFailure }.exceptionOrNull()!!.message!!
        check("stranger-tv" in err && "133" in err) { err }
        eq(HOST, peer.device)
        eq("An", peer.name)
        eq(boardGames() + GameKind.LINES, peer.games)
        eq(16, peer.fingerprint.length)
        eq(null, scan.found.poll(100, TimeUnit.MILLISECONDS), "each device once")
        radio.stopScan()

        val guest = Match.joinBle("Binh", radio, peer.device, guestEvents)
        try {
            val hc = hostEvents.next<MatchEvent.VerifyCode>()
            val gc = guestEvents.next<MatchEvent.VerifyCode>()
            eq(hc.code, gc.code, "both phones show the same code")
            eq("Binh", hc.peerName)
            eq("An", gc.peerName)
            host.confirmCode(hc.code)
            guest.confirmCode(gc.code)
            eq(Color.BLACK, guestEvents.next<MatchEvent.Proposed>().offer.yourColor)
            guest.acceptProposal()
            hostEvents.next<MatchEvent.Started>()
            guestEvents.next<MatchEvent.Started>()

            // A stranger subscribes and writes garbage: it gets a link of its own, the game goes on.
            air.host.onSubscribed("stranger", 23u)
            air.host.onWrite("stranger", byteArrayOf(0xc0.toByte(), 1, 2, 3))
            for ((i, mv) in listOf("f3", "e5", "g4", "Qh4#").withIndex()) {
                (if (i % 2 == 0) host else guest).playText(mv)
                eq(mv, bothSee(hostEvents, guestEvents).text)
            }
            eq("You won: checkmate", guestEvents.next<MatchEvent.GameOver>().text)
            eq("You lost: checkmate", hostEvents.next<MatchEvent.GameOver>().text)
            eq(Outcome.Win(Color.BLACK, WinReason.CHECKMATE), host.state().outcome)
            check(air.busy.get() >= 3) { "the host's stack was busy ${air.busy.get()} times" }
            check(air.writes.get() >= 10) { "${air.writes.get()} writes" }

            // The guest's adapter goes off: the link drops and the app can say why; back on,
            // the match resumes and a new proposal crosses.
            air.guest.onAdapterState(BleAdapterState.OFF)
            air.host.onUnsubscribed(GUEST)
            check(radio.adapterMessage()?.contains("Bluetooth is off") == true) { "${radio.adapterMessage()}" }
            guestEvents.next<MatchEvent.Disconnected>()
            air.guest.onAdapterState(BleAdapterState.ON)
            // The host's adapter cycles too: it advertises again by itself.
            air.host.onAdapterState(BleAdapterState.OFF)
            air.host.onAdapterState(BleAdapterState.ON)
            val deadline = System.nanoTime() + 5_000_000_000L
            while (air.starts.get() < 2) {
                check(System.nanoTime() < deadline) { "the host did not advertise again" }
                Thread.sleep(5)
            }
            host.propose(MatchOffer(GameKind.XIANGQI, Color.BLACK, null, null))
            eq(GameKind.XIANGQI, guestEvents.next<MatchEvent.Proposed>().offer.game)
        } finally {
            guest.leave()
            host.leave()
        }
        host.destroy()
        // The connector thread ends its wait for a central (5 s at most), then stops advertising.
        val stopBy = System.nanoTime() + 10_000_000_000L
        while (!air.stopped.get()) {
            check(System.nanoTime() < stopBy) { "leaving stops the peripheral" }
            Thread.sleep(10)
        }
        guest.destroy()
        radio.destroy()
    }

    s.test("BLE: shell failures are readable errors; adapter messages") {
        val denied = object : BlePeripheral {
            override fun start(advertisement: BleAdvertisement, events: BlePeripheralEvents) =
                throw BleException.Unauthorized("BLUETOOTH_ADVERTISE denied")
            override fun notify(central: String, value: ByteArray) = true
            override fun disconnect(central: String) {}
            override fun stop() {}
        }
        val e = throws<BancoException.Network> { Match.hostBle("An", denied, listOf(), null, QueueMatchListener("x")) }
        check(e.message!!.contains("BLUETOOTH_ADVERTISE")) { "${e.message}" }
        val crashing = object : BleCentral {
            override fun start(events: BleCentralEvents) = throw IllegalStateException("shell bug")
            override fun scan(service: BleService) {}
            override fun stopScan() {}
            override fun readInfo(device: String) {}
            override fun connect(device: String) {}
            override fun write(device: String, value: ByteArray, withResponse: Boolean) = true
            override fun disconnect(device: String) {}
        }
        val e2 = throws<BancoException.Network> { BleGuest(crashing) }
        check(e2.message!!.contains("shell bug")) { "${e2.message}" }
        check(bleAdapterMessage(BleAdapterState.UNAUTHORIZED)!!.contains("Nearby devices")) { "unauthorized" }
        check(bleAdapterMessage(BleAdapterState.OFF)!!.contains("turn it on")) { "off" }
        eq(null, bleAdapterMessage(BleAdapterState.ON))
    }
}
