// A networked game with a nearby player: holds Rust's Match (pairing code, proposals, moves
// checked by both sides, undo and draw offers, the reconnect banner, results, the clocks
// ready to show in MatchState.clockFaces and the offered clock in offeredClock) and adds the
// platform services — events hopped to the UI thread, sounds, the promotion picker, and a
// timer that reads the state again when a running clock's text changes
// (ClockFaces.nextChangeMs), so the screen counts down, and shows a flag fall, without a move.
// Over Bluetooth, the BleGate's banner (Bluetooth off, permission withdrawn) is shown while the
// adapter is unusable; the match resumes by itself when it is back.
import Foundation

public final class MatchModel: Model {
    public struct State: Equatable {
        /// Everything to draw, from Rust (phase, code, proposal, board, banner, result…).
        public var match: MatchState?
        /// An action that was refused, to show once.
        public var message: String?
        /// The promotion picker is open with these choices (Rust's board says so).
        public var promotion: [PieceKind]? { match.flatMap { $0.phase == .closed ? nil : $0.board?.promotion?.choices } }
        /// The Lines race, once one was accepted: both boards, scores, time left, the result.
        public var race: RaceState? { match?.race }
        /// The finished race was put away ("Back to the match", `backToMatch`): the match
        /// screen shows, with the race's result and what comes next, until another race starts.
        public internal(set) var raceSetAside = false
        /// The race screen is the one to show: a race is on, or over and not put away yet.
        public var showsRace: Bool { race.map { $0.outcome == nil || !raceSetAside } ?? false }
        /// The race's picked ball on our board (ringed).
        public var raceSelected: Int?
        /// Our last race move's walk along its path, to animate.
        public var raceRun: BallRun?
        /// A host: where the guest can come from (the LAN, Bluetooth); empty for a guest.
        public var openOn: [NearbyTransport] = []
        /// About Bluetooth: a host's reason for not being open over it, or, mid-game, why the
        /// adapter is unusable (the match resumes when it is back); nil when all is well.
        public var bluetooth: String?
        /// Jieqi: the last move's reveal in Rust's words ("cannon h2 revealed: rook"), until the next move.
        public var announcement: String? { match?.lastMove?.announcement }
        /// A remembered player came with a different key (a reinstall, or someone impersonating
        /// them), in Rust's words: show it in an alert the player must close
        /// (`clearKeyWarning`).
        public var keyWarning: String? { match?.keyWarning }
    }

    public private(set) var state = State() {
        willSet { willChange() }
        didSet { didChange() }
    }

    private let ui: UIDispatcher
    private let sound: SoundPlayer
    /// Called with the device identity and remembered players after a confirmation: store the bytes privately.
    private let onTrust: (Data) -> Void
    private var match: Match?
    /// Only the latest tick scheduled for a running clock runs.
    private var tickGeneration = 0
    /// The gate followed for its banner, and the observation.
    private var gate: (BleGate, Int)?

    private init(ui: UIDispatcher, sound: SoundPlayer, onTrust: @escaping (Data) -> Void) {
        self.ui = ui
        self.sound = sound
        self.onTrust = onTrust
    }

    final class Listener: MatchListener, @unchecked Sendable {
        weak var model: MatchModel?
        let ui: UIDispatcher
        init(_ ui: UIDispatcher) { self.ui = ui }
        func onEvent(event: MatchEvent) {
            ui.post { [weak model = self.model] in model?.handle(event) }
        }
    }

    /// Opens the match (`attach`).
    private static func open(_ ui: UIDispatcher, _ sound: SoundPlayer, _ onTrust: @escaping (Data) -> Void,
                             gate: BleGate? = nil, _ make: (Listener) throws -> Match) throws -> MatchModel {
        let m = MatchModel(ui: ui, sound: sound, onTrust: onTrust)
        let l = Listener(ui)
        l.model = m
        m.attach(try make(l), gate: gate)
        return m
    }

    /// Takes `match` (on the UI thread): a host's transports and Bluetooth note are Rust's
    /// (`Match.hosting`).
    private func attach(_ match: Match, gate: BleGate?) {
        self.match = match
        let hosting = match.hosting()
        state.openOn = hosting?.openOn ?? []
        state.bluetooth = hosting?.notOpen.first(where: { $0.transport == .ble && !$0.reason.isEmpty })?.reason
        // A host follows the gate only while open over Bluetooth; a guest joining over it always.
        if let g = gate, hosting == nil || state.openOn.contains(.ble) {
            let id = g.observe { [weak self, weak g] in self?.state.bluetooth = g?.banner }
            self.gate = (g, id)
            state.bluetooth = g.banner
        }
        refresh()
    }

    /// `join`, off the UI thread: Rust resolves the address (a host name asks the DNS, which
    /// can stall offline) on `background`, then `done` gets the model, or the reason it could
    /// not start, through `ui`. Returns at once. A host that refuses or never answers is the
    /// model's state, as for `join`.
    public static func joinInBackground(ui: UIDispatcher, name: String, address: String,
                                        sound: SoundPlayer = SilentSound(), trust: Data? = nil,
                                        onTrust: @escaping (Data) -> Void = { _ in },
                                        background: @escaping (@escaping () -> Void) -> Void = {
                                            DispatchQueue.global(qos: .userInitiated).async(execute: $0)
                                        },
                                        done: @escaping (Result<MatchModel, Error>) -> Void) {
        let m = MatchModel(ui: ui, sound: sound, onTrust: onTrust)
        let l = Listener(ui)
        l.model = m
        background {
            let made = Result { try Match.join(playerName: name, address: address, listener: l, trust: trust) }
            ui.post { done(made.map { m.attach($0, gate: nil); return m }) }
        }
    }

    /// The record of the match's game, running or finished, in the one save format (Rust's,
    /// with how it ended: a resignation or a loss on time is kept), to save (`MatchRecords`)
    /// or share (`MatchRecords.pgn`); nil (and the reason as the message) before a board game.
    public func saved() -> Data? {
        var bytes: Data?
        act { bytes = try $0.game().save() }
        return bytes
    }

    /// Hosts on `address` (`0.0.0.0:7368` on a phone, `127.0.0.1:0` in tests), offering
    /// every game of the home screen and proposing the one of `settings`, with its clock;
    /// with `race`, a Lines race of the settings' race options instead (`offer`).
    /// `trust` is what `onTrust` stored last time (a remembered player then skips the code);
    /// `nil` uses a throwaway identity.
    public static func host(ui: UIDispatcher, settings: Settings, address: String, advertise: Bool,
                            sound: SoundPlayer = SilentSound(), trust: Data? = nil,
                            onTrust: @escaping (Data) -> Void = { _ in },
                            race: Bool = false) throws -> MatchModel {
        try open(ui, sound, onTrust) {
            try Match.host(playerName: settings.playerName, listenAddress: address, advertise: advertise,
                           offers: Settings.games, proposal: offer(settings, race: race),
                           listener: $0, trust: trust)
        }
    }

    /// What a host proposes: the settings' game with its rules and clock, or, with `race`,
    /// Rust's offer of a Lines race (`raceOffer`) with the settings' start balls, time limit
    /// and preview (`Settings.raceSettings`); the host's colour names its board. Either is
    /// hosted with the home screen's games as offers (Rust offers the race with them).
    private static func offer(_ settings: Settings, race: Bool) -> MatchOffer {
        race ? raceOffer(settings: settings.raceSettings, yourColor: settings.color) : settings.offer
    }

    /// `host`, and over Bluetooth LE at the same time through `peripheral` (the app's GATT
    /// server): one match, so the lobby shows the host once and the guest comes whichever way
    /// it found it. Without `peripheral` (`bluetoothUnavailable` says why), or when it cannot
    /// start, Rust hosts on the LAN alone and the state says why (`bluetooth`). With `race`,
    /// the host proposes a Lines race, as `host` does.
    public static func hostNearby(ui: UIDispatcher, settings: Settings, address: String, advertise: Bool,
                                  peripheral: BlePeripheral?, bluetoothUnavailable: String?, gate: BleGate?,
                                  sound: SoundPlayer = SilentSound(), trust: Data? = nil,
                                  onTrust: @escaping (Data) -> Void = { _ in },
                                  race: Bool = false) throws -> MatchModel {
        try open(ui, sound, onTrust, gate: gate) {
            try Match.hostNearby(playerName: settings.playerName, listenAddress: address, advertise: advertise,
                                 peripheral: peripheral, bluetoothUnavailable: bluetoothUnavailable,
                                 offers: Settings.games, proposal: offer(settings, race: race),
                                 listener: $0, trust: trust)
        }
    }

    /// Joins a player of the nearby list over its preferred transport (the LAN when it was
    /// seen there, else Bluetooth through `guest`).
    public static func joinNearby(ui: UIDispatcher, name: String, player: NearbyPlayer, guest: BleGuest?,
                                  gate: BleGate?, sound: SoundPlayer = SilentSound(), trust: Data? = nil,
                                  onTrust: @escaping (Data) -> Void = { _ in }) throws -> MatchModel {
        try open(ui, sound, onTrust, gate: player.preferred == .ble ? gate : nil) {
            try Match.joinNearby(playerName: name, player: player, ble: guest, listener: $0, trust: trust)
        }
    }

    /// Opens a host on `address` ("0.0.0.0:7368") through `open`; when that port is taken
    /// (another app, a match still closing), on any free port instead: the lobby advertises the
    /// port it got, and the host's status shows the address.
    public static func onFreePortIfTaken<T>(_ address: String, _ open: (String) throws -> T) throws -> T {
        do {
            return try open(address)
        } catch let e as BancoError {
            guard case .Network = e else { throw e }
            let host = address.split(separator: ":", omittingEmptySubsequences: false).dropLast().joined(separator: ":")
            return try open(host + ":0")
        }
    }

    public static func join(ui: UIDispatcher, name: String, address: String,
                            sound: SoundPlayer = SilentSound(), trust: Data? = nil,
                            onTrust: @escaping (Data) -> Void = { _ in }) throws -> MatchModel {
        try open(ui, sound, onTrust) { try Match.join(playerName: name, address: address, listener: $0, trust: trust) }
    }

    public static func joinPeer(ui: UIDispatcher, name: String, peer: LobbyPeer,
                                sound: SoundPlayer = SilentSound(), trust: Data? = nil,
                                onTrust: @escaping (Data) -> Void = { _ in }) throws -> MatchModel {
        try open(ui, sound, onTrust) { try Match.joinPeer(playerName: name, peer: peer, listener: $0, trust: trust) }
    }

    /// The player saw the same `code` on both phones (the code the alert showed: a newer one is refused).
    public func confirmCode(_ code: String) { act { try $0.confirmCode(code: code) } }
    public func rejectCode() { act { try $0.rejectCode() } }
    /// Host: take connections again after several codes nobody confirmed.
    public func reopen() { act { try $0.reopen() } }
    /// Accepts the proposal numbered `id` (`MatchState.proposalId`, the one shown) and no
    /// other: one the other player replaced since is refused (the message set), nothing accepted.
    public func acceptOffer(_ id: UInt64) { act { try $0.acceptOffer(id: id) } }
    public func declineProposal() { act { try $0.declineProposal() } }
    /// Proposes the game `settings` choose (its game, the player's colour, rules and clock:
    /// `Settings.offer`) after a game or between games, from either side: the other player
    /// gets the accept prompt.
    public func propose(_ settings: Settings) { act { try $0.propose(offer: settings.offer) } }
    /// The game just played again: a board game with the colours swapped (Rust keeps the game,
    /// rules, start and clock), a Lines race anew with its options (a new seed): "another
    /// game" and "race again".
    public func proposeRematch() { act { try $0.proposeRematch() } }
    public func requestUndo() { act { try $0.requestUndo() } }
    public func replyUndo(_ accept: Bool) { act { try $0.replyUndo(accept: accept) } }
    public func offerDraw() { act { try $0.offerDraw() } }
    public func replyDraw(_ accept: Bool) { act { try $0.replyDraw(accept: accept) } }
    public func claimDraw() { act { try $0.claimDraw() } }
    public func resign() { act { try $0.resign() } }
    /// Reads the state again. The model calls it itself whenever a running clock's text changes.
    public func tick() { refresh() }

    /// Proposes a Lines race (the other player accepts it like any proposal).
    public func proposeRace(_ settings: RaceSettings, color: Color = .red) {
        act { try $0.proposeRace(settings: settings, color: color) }
    }

    /// "Back to the match" after a race (as Android's race screen): the match screen shows,
    /// with the race's result and what comes next (a game, the race again), until another
    /// race starts. Nothing while the race is on.
    public func backToMatch() {
        guard state.race?.outcome != nil else { return }
        state.raceSetAside = true
    }

    /// Resigns the race (the other player wins).
    public func raceResign() { act { try $0.raceResign() } }

    /// A tap on cell `cell` of our race board: Rust picks a ball, picks another, puts it
    /// down, or moves the picked one (the turn, returned); a cell out of reach is the message.
    @discardableResult
    public func raceTap(_ cell: Int) -> LinesTurn? {
        guard let c = UInt8(exactly: cell) else { return nil }
        var tap: LinesTap?
        act { tap = try $0.raceTap(cell: c) }
        state.raceSelected = match?.raceSelected().map { Int($0) }
        switch tap {
        case .moved(let turn)?:
            state.raceRun = BallRun(turn)
            return turn
        case .unreachable(let message)?:
            state.message = message
        default:
            break
        }
        return nil
    }

    public func tap(column: Int, row: Int) {
        guard let c = UInt8(exactly: column), let r = UInt8(exactly: row) else { return }
        act { _ = try $0.tap(column: c, row: r) }
    }

    public func choosePromotion(_ kind: PieceKind) {
        act { _ = try $0.choosePromotion(piece: kind) }
    }

    /// The picker was dismissed: nothing is played and the pawn is deselected.
    public func cancelPromotion() {
        act { try $0.clearSelection() }
    }

    /// The changed-key warning was read and closed.
    public func clearKeyWarning() { act { try $0.clearKeyWarning() } }

    /// The notice (Rust's) and the message (ours) were shown.
    public func clearNotice() {
        state.message = nil
        act { try $0.clearNotice() }
    }

    /// Leaves the match (the other device is told); a game or race in progress is resigned.
    /// Returns at once (Rust delivers the resignation in the background): fine on the main thread.
    public func leave() {
        act { try $0.leave() }
        if let followed = gate {
            followed.0.unobserve(followed.1)
            gate = nil
        }
    }

    private func act(_ body: (Match) throws -> Void) {
        guard let m = match else { return }
        do { try body(m) } catch { state.message = readable(error) }
        refresh()
    }

    private func refresh() {
        guard let m = match, let s = try? m.state() else { return }
        var next = state
        next.match = s
        // A race on (or none): the next finished race shows on its screen again.
        if s.race?.outcome == nil { next.raceSetAside = false }
        state = next
        scheduleTick(s)
    }

    /// While a clock runs, reads the state again when its text changes (Rust says when).
    private func scheduleTick(_ s: MatchState) {
        tickGeneration += 1
        guard let wait = s.clockFaces?.nextChangeMs else { return }
        let generation = tickGeneration
        ui.post(afterMs: wait) { [weak self] in
            guard let self = self, generation == self.tickGeneration else { return }
            self.refresh()
        }
    }

    /// Applies one event on the UI thread: its sound, then the state read from Rust.
    func handle(_ event: MatchEvent) {
        switch event {
        case .movePlayed(let played, _): sound.play(soundOf(played))
        case .gameOver: sound.play(.gameOver)
        case .race(let update): if case .over = update { sound.play(.gameOver) }
        // Rust's trust after a confirmed code, and again when the match closes (a host that
        // turned this device away after its player confirmed is forgotten then).
        case .peerVerified, .closed: if let t = try? match?.exportTrust() { onTrust(t) }
        default: break
        }
        refresh()
    }
}
