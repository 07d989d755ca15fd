// Bluetooth LE across the FFI from Swift: BlePeripheral and BleCentral implemented by test
// doubles that pipe ATT values between a "host phone" and a "guest phone" in one process
// (the iOS shell implements them with CBPeripheralManager/CBCentralManager). Scan and info,
// the same code on both sides, a chess game to mate with a busy host stack and a stranger
// subscribing, the guest's adapter off and on (the match resumes), the host re-advertising
// after its adapter cycles, leaving stops the peripheral.
import Foundation

private let hostDevice = "AA:BB:CC:00:00:01"
private let guestCentral = "guest-phone"

/// Both phones' radios: what one side sends, the other side's events hear.
final class Air: @unchecked Sendable {
    let mtu: UInt16
    private let lock = NSLock()
    private var _host: BlePeripheralEvents?
    private var _guest: BleCentralEvents?
    private var _ad: BleAdvertisement?
    private var counts: [String: Int] = [:]
    var stopped = false

    init(mtu: UInt16) { self.mtu = mtu }

    func locked<R>(_ f: () -> R) -> R { lock.lock(); defer { lock.unlock() }; return f() }
    var host: BlePeripheralEvents { locked { _host! } }
    var guest: BleCentralEvents { locked { _guest! } }
    var advertised: BleAdvertisement? { locked { _ad } }
    func setHost(_ e: BlePeripheralEvents, _ ad: BleAdvertisement) { locked { _host = e; _ad = ad } }
    func setGuest(_ e: BleCentralEvents) { locked { _guest = e } }
    @discardableResult func bump(_ what: String) -> Int { locked { counts[what, default: 0] += 1; return counts[what]! } }
    func count(_ what: String) -> Int { locked { counts[what, default: 0] } }
}

final class PipePeripheral: BlePeripheral, @unchecked Sendable {
    let air: Air
    init(_ air: Air) { self.air = air }

    func start(advertisement: BleAdvertisement, events: BlePeripheralEvents) throws {
        air.bump("starts")
        air.setHost(events, advertisement)
    }

    func notify(central: String, value: Data) throws -> Bool {
        if air.bump("notifies") % 3 == 0 {
            // The queue is full: refuse, then say when it drained (peripheralManagerIsReady).
            air.bump("busy")
            let host = air.host
            Thread.detachNewThread { host.onReadyToNotify() }
            return false
        }
        if central == guestCentral { air.guest.onNotification(device: hostDevice, value: value) }
        return true
    }

    func disconnect(central: String) {
        air.host.onUnsubscribed(central: central)
        if central == guestCentral { air.guest.onDisconnected(device: hostDevice) }
    }

    func stop() { air.locked { air.stopped = true } }
}

final class PipeCentral: BleCentral, @unchecked Sendable {
    let air: Air
    init(_ air: Air) { self.air = air }

    func start(events: BleCentralEvents) throws {
        air.setGuest(events)
        events.onAdapterState(state: .on)
    }

    func scan(service: BleService) throws {
        guard let ad = air.advertised, ad.service == service else { return }
        air.guest.onDiscovered(device: "stranger-tv", localName: nil)
        air.guest.onDiscovered(device: hostDevice, localName: ad.localName)
        air.guest.onDiscovered(device: hostDevice, localName: ad.localName)
    }

    func stopScan() {}

    func readInfo(device: String) throws {
        if device == hostDevice, let ad = air.advertised {
            air.guest.onInfo(device: device, value: ad.info)
        } else {
            air.guest.onInfoFailed(device: device, reason: "GATT error 133")
        }
    }

    func connect(device: String) throws {
        guard device == hostDevice else { throw BleError.Failed(reason: "no such device \(device)") }
        let air = self.air
        Thread.detachNewThread {
            air.host.onSubscribed(central: guestCentral, mtu: 23)
            air.host.onMtuChanged(central: guestCentral, mtu: air.mtu)
            air.guest.onConnected(device: hostDevice, mtu: air.mtu)
        }
    }

    func write(device: String, value: Data, withResponse: Bool) throws -> Bool {
        air.bump("writes")
        air.host.onWrite(central: guestCentral, value: value)
        return true
    }

    func disconnect(device: String) {
        air.guest.onDisconnected(device: device)
        air.host.onUnsubscribed(central: guestCentral)
    }
}

final class SwiftScanListener: BleScanListener, @unchecked Sendable {
    let found = Inbox<Result<BlePeer, TestFailure>>()
    func onPeerFound(peer: BlePeer) { found.put(.success(peer)) }
    func onError(message: String) { found.put(.failure(TestFailure(description: message))) }
}

final class DeniedPeripheral: BlePeripheral, @unchecked Sendable {
    func start(advertisement: BleAdvertisement, events: BlePeripheralEvents) throws {
        throw BleError.Unauthorized(reason: "Bluetooth permission denied by the user")
    }
    func notify(central: String, value: Data) throws -> Bool { true }
    func disconnect(central: String) {}
    func stop() {}
}

func bleTests(_ s: Suite) {
    s.test("BLE: a chess match crosses the BlePeripheral/BleCentral foreign traits") {
        let air = Air(mtu: 185)
        let hl = SwiftMatchListener(), gl = SwiftMatchListener()
        let host = try Match.hostBle(playerName: "An", peripheral: PipePeripheral(air), offers: [],
                                     proposal: MatchOffer(game: .chess, yourColor: .red, rules: nil, startFen: nil),
                                     listener: hl)
        try eq("Bluetooth LE", try host.address())
        try eq([], try host.state().reachable, "no address to type over Bluetooth")
        try eq([NearbyTransport.ble], host.hosting()?.openOn)
        let ad = try air.advertised.orThrow("advertised")
        try eq("Banco An", ad.localName)
        try eq(bleService(), ad.service)

        let radio = try BleGuest(central: PipeCentral(air))
        try eq(nil, radio.adapterMessage())
        let scan = SwiftScanListener()
        try radio.scan(listener: scan)
        let results = [try scan.found.next("scan", 10) { $0 }, try scan.found.next("scan", 10) { $0 }]
        var peer: BlePeer?
        var error = ""
        for r in results {
            switch r {
            case .success(let p): peer = p
            case .failure(let f): error = f.description
            }
        }
        try check(error.contains("stranger-tv") && error.contains("133"), error)
        let p = try peer.orThrow("the host found")
        try eq(hostDevice, p.device)
        try eq("An", p.name)
        try eq(boardGames() + [GameKind.lines], p.games)
        try eq(16, p.fingerprint.count)
        try radio.stopScan()

        let guest = try Match.joinBle(playerName: "Binh", guest: radio, device: p.device, listener: gl)
        defer { try? guest.leave(); try? host.leave() }
        let hc = try hl.next("host code") { e -> String? in if case .verifyCode(let c, _) = e { return c }; return nil }
        let gc = try gl.next("guest code") { e -> String? in if case .verifyCode(let c, _) = e { return c }; return nil }
        try eq(hc, gc, "both phones show the same code")
        try host.confirmCode(code: hc)
        try guest.confirmCode(code: gc)
        _ = try gl.next("proposal") { e -> Bool? in if case .proposed = e { return true }; return nil }
        try guest.acceptProposal()
        for l in [hl, gl] {
            _ = try l.next("started") { e -> Bool? in if case .started = e { return true }; return nil }
        }
        // A stranger subscribes and writes garbage: a link of its own, the game goes on.
        air.host.onSubscribed(central: "stranger", mtu: 23)
        air.host.onWrite(central: "stranger", value: Data([0xc0, 1, 2, 3]))
        for (i, mv) in ["f3", "e5", "g4", "Qh4#"].enumerated() {
            _ = try (i % 2 == 0 ? host : guest).playText(text: mv)
            for l in [hl, gl] {
                let t = try l.next("move \(mv)") { e -> String? in if case .movePlayed(let p, _) = e { return p.text }; return nil }
                try eq(mv, t)
            }
        }
        let over = { (e: MatchEvent) -> String? in if case .gameOver(_, let t) = e { return t }; return nil }
        try eq("You won: checkmate", try gl.next("guest result", over))
        try eq("You lost: checkmate", try hl.next("host result", over))
        try check(air.count("busy") >= 1, "the host's stack was busy")

        // The guest's adapter goes off and on: the match resumes; the host re-advertises.
        air.guest.onAdapterState(state: .off)
        air.host.onUnsubscribed(central: guestCentral)
        try check(radio.adapterMessage()?.contains("Bluetooth is off") == true, "\(String(describing: radio.adapterMessage()))")
        _ = try gl.next("disconnected") { e -> Bool? in if case .disconnected = e { return true }; return nil }
        air.guest.onAdapterState(state: .on)
        air.host.onAdapterState(state: .off)
        air.host.onAdapterState(state: .on)
        try check(waitFor(5) { air.count("starts") >= 2 }, "the host advertises again")
        try host.propose(offer: MatchOffer(game: .xiangqi, yourColor: .black, rules: nil, startFen: nil))
        let g = try gl.next("new proposal") { e -> GameKind? in if case .proposed(let o, _) = e { return o.game }; return nil }
        try eq(GameKind.xiangqi, g)
        try guest.leave()
        try host.leave()
        try check(waitFor(10) { air.locked { air.stopped } }, "leaving stops the peripheral")
    }

    s.test("BLE: a refused permission is a readable error; adapter messages") {
        let text = try fails(.network) {
            _ = try Match.hostBle(playerName: "An", peripheral: DeniedPeripheral(), offers: [], proposal: nil,
                                  listener: SwiftMatchListener())
        }
        try check(text.contains("permission denied"), text)
        try check(bleAdapterMessage(state: .unauthorized)?.contains("Bluetooth (iOS)") == true, "unauthorized")
        try eq(nil, bleAdapterMessage(state: .on))
    }
}

extension Optional {
    func orThrow(_ what: String) throws -> Wrapped {
        guard let v = self else { throw TestFailure(description: "missing: \(what)") }
        return v
    }
}
