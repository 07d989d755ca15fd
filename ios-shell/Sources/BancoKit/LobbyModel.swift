// The nearby-players list and the ways into a match with one of them. The list is Rust's
// NearbyLobby: players found on the LAN (mDNS) and over Bluetooth LE, each once (matched by
// key fingerprint), with the transports it was seen on, the LAN preferred. Joining goes
// through Match.joinNearby (the LAN when the player is there, else Bluetooth); hosting goes
// through Match.hostNearby (one match, one key), handed the peripheral when the BleGate says
// Bluetooth is usable, else the gate's reason: Rust opens what it can (the LAN alone when the
// peripheral cannot start) and says where it is open and why not elsewhere. When Bluetooth
// cannot be used (off, permission missing or refused, unsupported) the state says why, in
// Rust's words, and the lobby works on the LAN alone.
import Foundation

/// The phone's Bluetooth, for the lobby: the gate (authorization, adapter state) and the
/// platform radios (AppleBle.swift: `AppleBleCentral`, `AppleBlePeripheral`), made only once
/// the gate allows them.
public final class NearbyBluetooth {
    public let gate: BleGate
    /// CBManager.authorization, as the app maps it.
    public let authorization: () -> BleGate.Authorization
    public let central: () -> BleCentral
    public let peripheral: () -> BlePeripheral

    public init(gate: BleGate, authorization: @escaping () -> BleGate.Authorization,
                central: @escaping () -> BleCentral, peripheral: @escaping () -> BlePeripheral) {
        self.gate = gate
        self.authorization = authorization
        self.central = central
        self.peripheral = peripheral
    }
}

public final class LobbyModel: Model {
    public struct State: Equatable {
        /// Players around, by name; each once, with where it was seen (`transportsText`).
        public var players: [NearbyPlayer] = []
        public var discovering = false
        public var error: String?
        /// Why players are not looked for over Bluetooth (off, permission…); nil when they are.
        public var bluetooth: String?
        /// What the player can do about `bluetooth` (ask, open Settings, turn it on).
        public var bluetoothStep: BleStep?
    }

    public private(set) var state = State() {
        willSet { willChange() }
        didSet { didChange() }
    }

    private let ui: UIDispatcher
    /// nil: the LAN only.
    private let bluetooth: NearbyBluetooth?
    private var lobby: NearbyLobby?
    /// The guest's radio, made once the gate allowed it; kept for the matches joined over it.
    private var guest: BleGuest?
    private lazy var listener = Listener(self)

    public init(ui: UIDispatcher, bluetooth: NearbyBluetooth? = nil) {
        self.ui = ui
        self.bluetooth = bluetooth
    }

    final class Listener: NearbyListener, @unchecked Sendable {
        weak var model: LobbyModel?
        init(_ m: LobbyModel) { model = m }
        func onPlayerFound(player: NearbyPlayer) { model?.playerFound(player) }
        func onPlayerUpdated(player: NearbyPlayer) { model?.playerFound(player) }
        func onPlayerLost(key: String) { model?.playerLost(key) }
        func onError(message: String) { model?.discoveryError(message) }
    }

    /// Starts discovery with the lobby `open` makes from the Bluetooth radio (nil when
    /// Bluetooth cannot be used now): `{ try NearbyLobby(interfaces: [], lan: true, ble: $0) }`.
    public func start(_ open: (BleGuest?) throws -> NearbyLobby) {
        guard lobby == nil else { return }
        do {
            let l = try open(guestRadio())
            try l.browse(listener: listener)
            lobby = l
            state.discovering = true
            state.error = nil
        } catch {
            state.discovering = false
            state.error = readable(error)
        }
    }

    public func stop() {
        guard let l = lobby else { return }
        lobby = nil
        try? l.stop()
        state.discovering = false
    }

    /// Bluetooth may have become usable (allowed, turned on): discovery starts again.
    public func restart(_ open: (BleGuest?) throws -> NearbyLobby) {
        stop()
        start(open)
    }

    /// Back in the foreground, or the adapter changed: when Bluetooth's readiness is not what
    /// the state shows (allowed or turned on in Settings, or another reason now), discovery
    /// starts again with `open`; otherwise nothing happens. Then a "tap to fix" always does
    /// what the present state needs.
    public func recheck(_ open: (BleGuest?) throws -> NearbyLobby) {
        guard let bt = bluetooth, lobby != nil else { return }
        let ready = bt.gate.check(role: .guest, authorization: bt.authorization())
        let step: BleStep? = ready.step == .ready ? nil : ready.step
        if step == state.bluetoothStep && (step != nil || state.bluetooth == nil) { return }
        restart(open)
    }

    /// Joins `player` over its preferred transport: a match model whose first events are the pairing code.
    public func join(_ player: NearbyPlayer, settings: Settings, sound: SoundPlayer = SilentSound(),
                     trust: Data? = nil, onTrust: @escaping (Data) -> Void = { _ in }) throws -> MatchModel {
        try MatchModel.joinNearby(ui: ui, name: settings.playerName, player: player, guest: guest,
                                  gate: bluetooth?.gate, sound: sound, trust: trust, onTrust: onTrust)
    }

    /// Hosts on `address` (`0.0.0.0:7368` on a phone), advertised on the LAN if `advertise`,
    /// and over Bluetooth too when the gate allows it and the peripheral starts; the model's
    /// state says where Rust opened it (`openOn`) and, when not over Bluetooth, why (`bluetooth`).
    /// It proposes the settings' game (with its clock), or with `race` a Lines race of the settings' race options
    /// (start balls, time limit, preview): a board game and a race are hosted the same way.
    public func host(settings: Settings, address: String, advertise: Bool, sound: SoundPlayer = SilentSound(),
                     trust: Data? = nil, onTrust: @escaping (Data) -> Void = { _ in },
                     race: Bool = false) throws -> MatchModel {
        guard let bt = bluetooth else {
            return try MatchModel.host(ui: ui, settings: settings, address: address, advertise: advertise,
                                       sound: sound, trust: trust, onTrust: onTrust, race: race)
        }
        let ready = bt.gate.check(role: .host, authorization: bt.authorization())
        return try MatchModel.hostNearby(ui: ui, settings: settings, address: address, advertise: advertise,
                                         peripheral: ready.step == .ready ? bt.peripheral() : nil,
                                         bluetoothUnavailable: ready.message, gate: bt.gate, sound: sound,
                                         trust: trust, onTrust: onTrust, race: race)
    }

    /// The guest's radio when the gate allows Bluetooth now, else nil with the reason in the state.
    private func guestRadio() -> BleGuest? {
        guard let bt = bluetooth else { return nil }
        let ready = bt.gate.check(role: .guest, authorization: bt.authorization())
        guard ready.step == .ready else {
            state.bluetooth = ready.message
            state.bluetoothStep = ready.step
            return nil
        }
        if guest == nil {
            do {
                guest = try BleGuest(central: bt.central())
            } catch {
                state.bluetooth = readable(error)
                state.bluetoothStep = nil
                return nil
            }
        }
        state.bluetooth = nil
        state.bluetoothStep = nil
        return guest
    }

    /// The games a player offers, as the list shows them ("Xiangqi, Chess").
    public static func gamesText(_ player: NearbyPlayer) -> String {
        player.games.map(gameName).joined(separator: ", ")
    }

    /// Where a player was seen, as the list shows it ("LAN · Bluetooth").
    public static func transportsText(_ player: NearbyPlayer) -> String {
        player.transports.map(\.label).joined(separator: " · ")
    }

    // Called from Rust's lobby threads (public for tests that play the network).
    public func playerFound(_ player: NearbyPlayer) {
        ui.post { [weak self] in
            guard let self = self else { return }
            var players = self.state.players.filter { $0.key != player.key }
            players.append(player)
            players.sort { ($0.name.lowercased(), $0.key) < ($1.name.lowercased(), $1.key) }
            self.state.players = players
        }
    }

    public func playerLost(_ key: String) {
        ui.post { [weak self] in self?.state.players.removeAll { $0.key == key } }
    }

    public func discoveryError(_ message: String) {
        ui.post { [weak self] in self?.state.error = message }
    }
}

extension NearbyTransport {
    /// As the lobby and the hosting screen name it.
    public var label: String {
        switch self {
        case .lan: return "LAN"
        case .ble: return "Bluetooth"
        }
    }
}
