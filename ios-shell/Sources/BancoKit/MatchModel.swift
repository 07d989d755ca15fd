// A networked game with a nearby player: pairing code, proposal, moves both ways, undo and
// draw offers, resignation, and the banner while the connection is down and resumes.
import Foundation

public final class MatchModel: Model {
    public enum Phase: Equatable { case connecting, listening, verify, waiting, proposed, playing, over, closed }

    public struct State: Equatable {
        public var phase: Phase = .connecting
        public var address = ""
        public var code: String?
        public var peerName: String?
        public var myColor: Color?
        public var rules: Rules?
        public var board = BoardModel()
        public var status: GameStatus?
        /// Shown over the board while the connection is down.
        public var banner: String?
        public var undoRequest: UInt32?
        public var drawOffered = false
        public var notice: String?
        public var result: String?
        public var closedReason: String?
        public var moves: [String] = []

        public var myTurn: Bool {
            phase == .playing && banner == nil && myColor != nil && status?.sideToMove == myColor
        }
    }

    public private(set) var state = State() {
        willSet { willChange() }
        didSet { didChange() }
    }

    private let ui: UIDispatcher
    private let sound: SoundPlayer
    private var match: Match?

    private init(ui: UIDispatcher, sound: SoundPlayer) {
        self.ui = ui
        self.sound = sound
    }

    final class Listener: MatchListener, @unchecked Sendable {
        weak var model: MatchModel?
        func onEvent(event: MatchEvent) {
            guard let m = model else { return }
            m.ui.post { [weak m] in m?.handle(event) }
        }
    }

    /// Hosts on `address` (`0.0.0.0:7368` on a phone, `127.0.0.1:0` in tests).
    public static func host(ui: UIDispatcher, settings: Settings, address: String, advertise: Bool,
                            sound: SoundPlayer = SilentSound()) throws -> MatchModel {
        let m = MatchModel(ui: ui, sound: sound)
        let l = Listener()
        l.model = m
        m.match = try Match.host(playerName: settings.playerName, listenAddress: address, advertise: advertise,
                                 hostColor: settings.color, repetition: settings.rules.repetition, listener: l)
        return m
    }

    public static func join(ui: UIDispatcher, name: String, address: String, sound: SoundPlayer = SilentSound()) throws -> MatchModel {
        let m = MatchModel(ui: ui, sound: sound)
        let l = Listener()
        l.model = m
        m.match = try Match.join(playerName: name, address: address, listener: l)
        return m
    }

    public static func joinPeer(ui: UIDispatcher, name: String, peer: LobbyPeer, sound: SoundPlayer = SilentSound()) throws -> MatchModel {
        let m = MatchModel(ui: ui, sound: sound)
        let l = Listener()
        l.model = m
        m.match = try Match.joinPeer(playerName: name, peer: peer, listener: l)
        return m
    }

    public func confirmCode() { act { try $0.confirmCode(); self.state.phase = .waiting } }
    public func rejectCode() { act { try $0.rejectCode() } }
    public func acceptProposal() { act { try $0.acceptProposal(); self.state.phase = .waiting } }
    public func declineProposal() { act { try $0.declineProposal() } }
    public func requestUndo() { act { try $0.requestUndo() } }
    public func replyUndo(_ accept: Bool) { act { try $0.replyUndo(accept: accept); self.state.undoRequest = nil } }
    public func offerDraw() { act { try $0.offerDraw() } }
    public func replyDraw(_ accept: Bool) { act { try $0.replyDraw(accept: accept); self.state.drawOffered = false } }
    public func resign() { act { try $0.resign() } }
    public func play(_ m: Move) { act { try $0.play(mv: m) } }
    public func clearNotice() { state.notice = nil }

    public func tap(_ s: Square) {
        guard let m = match else { return }
        let mover = state.myTurn ? state.myColor : nil
        let (board, result) = state.board.tap(s, mover: mover) { from in
            (try? m.game().legalMovesFrom(square: from)) ?? []
        }
        state.board = board
        if case .chosen(let mv) = result { play(mv) }
    }

    /// Leaves the match (the other phone is told).
    public func leave() {
        guard let m = match else { return }
        match = nil
        try? m.leave()
        var s = state
        s.phase = .closed
        s.banner = nil
        s.closedReason = s.closedReason ?? "You left"
        state = s
    }

    private func act(_ body: (Match) throws -> Void) {
        guard let m = match else { return }
        do { try body(m) } catch { state.notice = readable(error) }
    }

    /// Applies one event (public for tests that feed events).
    public func handle(_ event: MatchEvent) {
        var s = state
        if s.phase == .closed, case .closed = event {} else if s.phase == .closed { return }
        let inGame = s.phase == .playing || s.phase == .over
        switch event {
        case .listening(let address):
            s.phase = .listening
            s.address = address
        case .connected:
            if inGame { s.banner = nil } else { s.phase = .connecting }
        case .verifyCode(let code, let peerName):
            s.phase = .verify
            s.code = code
            s.peerName = peerName
        case .peerVerified(let peerName):
            s.peerName = peerName
            if inGame { s.banner = nil } else { s.phase = .waiting }
        case .peerKeyChanged(let peerName):
            s.notice = "Warning: \(peerName) comes with a different key than last time. Compare the code carefully."
        case .proposed(let yourColor, let rules):
            s.phase = .proposed
            s.myColor = yourColor
            s.rules = rules
        case .proposalDeclined:
            s.notice = "The other player declined the game"
        case .started(let yourColor, let rules, _):
            s.phase = .playing
            s.myColor = yourColor
            s.rules = rules
            s.banner = nil
            s = refreshed(s, lastMove: nil)
        case .movePlayed(let played, _, _):
            sound.play(soundOf(played))
            s.banner = nil
            s.drawOffered = false
            s = refreshed(s, lastMove: played.played)
        case .undoRequested(let toPly):
            s.undoRequest = toPly
        case .undoDeclined:
            s.notice = "The other player declined to take back"
        case .undone:
            s.undoRequest = nil
            s = refreshed(s, lastMove: nil)
        case .drawOffered:
            s.drawOffered = true
        case .drawDeclined:
            s.notice = "The other player declined the draw"
        case .gameOver(let outcome, let text):
            sound.play(.gameOver)
            s.phase = .over
            s.result = resultText(outcome, me: s.myColor, words: text)
            s.undoRequest = nil
            s.drawOffered = false
            s = refreshed(s, lastMove: s.board.lastMove)
        case .disconnected:
            s.banner = "Connection lost. Reconnecting…"
        case .reconnecting(let attempt, _):
            s.banner = "Connection lost. Reconnecting (attempt \(attempt))…"
        case .peerProblem(let message):
            s.notice = message
        case .closed(let reason):
            s.phase = .closed
            s.banner = nil
            s.closedReason = s.closedReason ?? reason
        }
        state = s
    }

    private func refreshed(_ s: State, lastMove: Move?) -> State {
        guard let m = match else { return s }
        var s = s
        do {
            let g = try m.game()
            s.board = try BoardModel.of(g, flipped: s.myColor == .black, lastMove: lastMove)
            s.status = try g.status()
            s.moves = try g.historyText(notation: .chinese)
        } catch {
            s.notice = readable(error)
        }
        return s
    }
}
