// The nearby lobby over Bluetooth LE: a host LobbyModel and a guest LobbyModel in one process
// whose "phones" are joined by test doubles of the CoreBluetooth code (the binding tests'
// PipePeripheral/PipeCentral: what one side sends, the other side's events hear). The guest
// finds the host in the one nearby list (marked Bluetooth), joins it, a move crosses, the
// guest's adapter goes off (the gate's banner) and on again, and the match resumes. Then the
// gate's states as the lobby and the hosting screen show them.
import Foundation
import BancoKit

private let hostDevice = "AA:BB:CC:00:00:01"
private let guestCentral = "guest-phone"

/// Both phones' radios: what one side sends, the other side's events hear.
final class Air: @unchecked Sendable {
    let mtu: UInt16
    private let lock = NSLock()
    private var _host: BlePeripheralEvents?
    private var _guest: BleCentralEvents?
    private var _ad: BleAdvertisement?
    private var _centrals = 0

    init(mtu: UInt16 = 23) { self.mtu = mtu }

    func locked<R>(_ f: () -> R) -> R { lock.lock(); defer { lock.unlock() }; return f() }
    var host: BlePeripheralEvents { locked { _host! } }
    var guest: BleCentralEvents { locked { _guest! } }
    var advertised: BleAdvertisement? { locked { _ad } }
    var centrals: Int { locked { _centrals } }
    func setHost(_ e: BlePeripheralEvents?, _ ad: BleAdvertisement?) { locked { _host = e ?? _host; _ad = ad } }
    func setGuest(_ e: BleCentralEvents) { locked { _guest = e; _centrals += 1 } }
}

final class PipePeripheral: BlePeripheral, @unchecked Sendable {
    let air: Air
    init(_ air: Air) { self.air = air }

    func start(advertisement: BleAdvertisement, events: BlePeripheralEvents) throws {
        air.setHost(events, advertisement)
    }

    func notify(central: String, value: Data) throws -> Bool {
        if central == guestCentral { air.guest.onNotification(device: hostDevice, value: value) }
        return true
    }

    func disconnect(central: String) {
        air.host.onUnsubscribed(central: central)
        if central == guestCentral { air.guest.onDisconnected(device: hostDevice) }
    }

    func stop() { air.setHost(nil, nil) }
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
            air.host.onSubscribed(central: guestCentral, mtu: air.mtu)
            air.guest.onConnected(device: hostDevice, mtu: air.mtu)
        }
    }

    func write(device: String, value: Data, withResponse: Bool) throws -> Bool {
        air.host.onWrite(central: guestCentral, value: value)
        return true
    }

    func disconnect(device: String) {
        air.guest.onDisconnected(device: device)
        air.host.onUnsubscribed(central: guestCentral)
    }
}

final class NoAdvertising: BlePeripheral, @unchecked Sendable {
    func start(advertisement: BleAdvertisement, events: BlePeripheralEvents) throws {
        throw BleError.Unsupported(reason: "this iPhone cannot advertise now")
    }
    func notify(central: String, value: Data) throws -> Bool { true }
    func disconnect(central: String) {}
    func stop() {}
}

/// Counts how many times something was made.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func bump() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}

/// The lobbies of two phones sharing `air`, Bluetooth allowed: the host's may advertise, the
/// guest's does not; and the guest's gate (to turn its adapter off and on).
func nearbyLobbies(_ air: Air, _ host: Side, _ guest: Side) -> (LobbyModel, LobbyModel, BleGate) {
    let hostGate = host.ui.call { BleGate(ui: host.ui) }
    let guestGate = guest.ui.call { BleGate(ui: guest.ui) }
    let hostLobby = LobbyModel(ui: host.ui, bluetooth: NearbyBluetooth(
        gate: hostGate, authorization: { .allowed }, central: { PipeCentral(air) }, peripheral: { PipePeripheral(air) }))
    let guestLobby = LobbyModel(ui: guest.ui, bluetooth: NearbyBluetooth(
        gate: guestGate, authorization: { .allowed }, central: { PipeCentral(air) }, peripheral: { NoAdvertising() }))
    return (hostLobby, guestLobby, guestGate)
}

func nearbyTests(_ s: Suite) {
    s.test("nearby: host and guest models find each other over the Bluetooth double, play, and resume after the adapter was off") {
        let air = Air()
        let host = Side(), guest = Side()
        let (hostLobby, guestLobby, guestGate) = nearbyLobbies(air, host, guest)
        host.model = try host.ui.call {
            try hostLobby.host(settings: Settings(color: .red, playerName: "An"), address: "127.0.0.1:0", advertise: false)
        }
        defer { guest.leave(); host.leave() }
        let listening = try host.wait("listening") { $0.phase == .listening }
        try check(listening.address.hasPrefix("127.0.0.1:"), listening.address)
        try eq([NearbyTransport.lan, .ble], host.state.openOn, "open on the LAN and over Bluetooth")
        try eq(nil, host.state.bluetooth)
        try eq("Banco An", air.advertised?.localName)

        // The guest's one list shows the host once, over Bluetooth.
        guest.ui.call { guestLobby.start { try NearbyLobby(interfaces: [], lan: false, ble: $0) } }
        let st = try guest.ui.wait("the host listed", { guestLobby.state }) { !$0.players.isEmpty }
        let an = st.players[0]
        try eq(1, st.players.count)
        try eq("An", an.name)
        try eq([NearbyTransport.ble], an.transports)
        try eq(NearbyTransport.ble, an.preferred)
        try eq("Bluetooth", LobbyModel.transportsText(an))
        try eq(16, an.fingerprint.count)
        try check(st.discovering && st.bluetooth == nil, "\(st)")

        guest.model = try guest.ui.call { try guestLobby.join(an, settings: Settings(playerName: "Binh")) }
        guest.ui.call { guestLobby.stop() }
        let hv = try host.wait("host code") { $0.phase == .verify }
        let gv = try guest.wait("guest code") { $0.phase == .verify }
        try eq(hv.code, gv.code, "both phones show the same code")
        host.act { $0.confirmCode(hv.code!) }
        guest.act { $0.confirmCode(gv.code!) }
        try guest.wait("the proposal") { $0.phase == .proposed }
        guest.act { $0.acceptOffer($0.state.match!.proposalId!) }
        try host.wait("playing") { $0.phase == .playing && $0.yourTurn }
        try host.tap("h2", "e2")
        try eq(["炮二平五"], try guest.wait("the host's move over Bluetooth") { $0.moves.count == 1 }.moves)

        // The guest's Bluetooth goes off mid-game: the gate's words; back on, the match resumes.
        air.guest.onAdapterState(state: .off)
        air.host.onUnsubscribed(central: guestCentral)
        guestGate.adapterChanged(.off)
        let off = try guest.ui.wait("the Bluetooth banner", { guest.model.state }) {
            $0.bluetooth != nil && $0.match?.banner != nil
        }
        try check(off.bluetooth!.contains("Bluetooth is off"), off.bluetooth!)
        air.guest.onAdapterState(state: .on)
        guestGate.adapterChanged(.on)
        _ = try guest.ui.wait("resumed", seconds: 60, { guest.model.state }) {
            $0.bluetooth == nil && $0.match?.banner == nil
        }
        _ = try guest.ui.wait("the guest's turn", seconds: 60, { guest.model.state.match }) {
            $0?.yourTurn == true && $0?.phase == .playing
        }
        try guest.tap("h9", "g7")
        try check(try host.wait("a move after resuming") { $0.moves.count == 2 }.yourTurn)
    }

    s.test("nearby: the gate's states in the lobby and when hosting; one entry per player") {
        let ui = TestUI()
        let air = Air()
        let gate = ui.call { BleGate(ui: ui) }
        var auth = BleGate.Authorization.notDetermined
        let peripherals = Counter()
        let lobby = LobbyModel(ui: ui, bluetooth: NearbyBluetooth(
            gate: gate, authorization: { auth }, central: { PipeCentral(air) },
            peripheral: { peripherals.bump(); return PipePeripheral(air) }))
        var radios: [Bool] = []
        let open = { (g: BleGuest?) throws -> NearbyLobby in
            radios.append(g != nil)
            return try NearbyLobby(interfaces: [], lan: false, ble: g)
        }

        // Not asked yet: the LAN only, and what to do.
        ui.call { lobby.start(open) }
        var st = ui.call { lobby.state }
        try eq(BleStep.askPermissions, st.bluetoothStep)
        try check(st.discovering && st.bluetooth != nil, "\(st)")
        // Back in the app with nothing changed: the lobby checks and leaves discovery alone.
        ui.call { lobby.recheck(open) }
        try eq([false], ui.call { radios }, "not restarted")
        // Denied (back from the prompt): Settings.
        auth = .denied
        ui.call { lobby.recheck(open) }
        st = ui.call { lobby.state }
        try eq(BleStep.openSettings, st.bluetoothStep)
        try check(st.bluetooth!.contains("allow Bluetooth for Banco"), st.bluetooth!)
        // Allowed, but Bluetooth is off: ask to turn it on; hosting stays on the LAN and says why.
        auth = .allowed
        gate.adapterChanged(.off)
        _ = try ui.wait("the gate sees it off", { gate.adapter }) { $0 == .off }
        ui.call { lobby.recheck(open) }
        st = ui.call { lobby.state }
        try eq(BleStep.turnOnBluetooth, st.bluetoothStep)
        try check(st.bluetooth!.contains("Bluetooth is off"), st.bluetooth!)
        let lanOnly = try ui.call {
            try lobby.host(settings: Settings(playerName: "An"), address: "127.0.0.1:0", advertise: false)
        }
        var hs = ui.call { lanOnly.state }
        try eq([NearbyTransport.lan], hs.openOn)
        try check(hs.bluetooth?.contains("Bluetooth is off") == true, "\(String(describing: hs.bluetooth))")
        try eq(0, peripherals.value, "no peripheral made while the gate says no")
        ui.call { lanOnly.leave() }
        // On again: Bluetooth is used, its radio made once.
        gate.adapterChanged(.on)
        _ = try ui.wait("the gate sees it on", { gate.adapter }) { $0 == .on }
        // Back from Settings with it on: the recheck restarts discovery once; a second finds
        // nothing changed.
        ui.call { lobby.recheck(open) }
        ui.call { lobby.recheck(open) }
        ui.call { lobby.restart(open) }
        st = ui.call { lobby.state }
        try check(st.bluetooth == nil && st.bluetoothStep == nil, "\(st)")
        try eq([false, false, false, true, true], ui.call { radios }, "a radio once the gate allowed it")
        try eq(1, air.centrals, "the guest's radio is made once")
        // The same player seen on the LAN after Bluetooth (Rust merged them): one entry, both marks.
        let ble = NearbyPlayer(key: "fp:a1b2", name: "Chi", games: [], protocolVersion: 3, fingerprint: "a1b2",
                               transports: [.ble], preferred: .ble, lan: nil, bleDevice: "dev-1")
        lobby.playerFound(ble)
        let both = NearbyPlayer(key: "fp:a1b2", name: "Chi", games: [], protocolVersion: 3, fingerprint: "a1b2",
                                transports: [.lan, .ble], preferred: .lan, lan: peer("chi", "Chi"), bleDevice: "dev-1")
        lobby.playerFound(both)
        st = try ui.wait("the merged entry", { lobby.state }) { $0.players.count == 1 && $0.players[0].transports.count == 2 }
        try eq("LAN · Bluetooth", LobbyModel.transportsText(st.players[0]))
        lobby.playerLost("fp:a1b2")
        _ = try ui.wait("gone", { lobby.state }) { $0.players.isEmpty }

        // A peripheral that cannot start after all: the LAN only, with its reason.
        let broken = LobbyModel(ui: ui, bluetooth: NearbyBluetooth(
            gate: ui.call { BleGate(ui: ui) }, authorization: { .allowed }, central: { PipeCentral(Air()) },
            peripheral: { NoAdvertising() }))
        let host = try ui.call { try broken.host(settings: Settings(playerName: "An"), address: "127.0.0.1:0", advertise: false) }
        hs = ui.call { host.state }
        try eq([NearbyTransport.lan], hs.openOn)
        try check(hs.bluetooth?.contains("cannot advertise") == true, "\(String(describing: hs.bluetooth))")
        try eq(MatchPhase.listening, hs.match?.phase)
        ui.call { host.leave() }
        // Unsupported: said as such.
        gate.adapterChanged(.unsupported)
        _ = try ui.wait("unsupported", { gate.adapter }) { $0 == .unsupported }
        ui.call { lobby.restart(open) }
        try eq(BleStep.unsupported, ui.call { lobby.state }.bluetoothStep)
        ui.call { lobby.stop() }
    }
}
