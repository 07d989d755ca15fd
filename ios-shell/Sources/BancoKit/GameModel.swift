// A game against the on-device AI: taps, the AI's turn on the engine thread (cancelled when the
// player leaves), undo/redo by whole turns, hints, and the game to continue.
import Foundation

public final class GameModel: Model {
    public struct State: Equatable {
        public var board = BoardModel()
        public var status: GameStatus?
        public var humanColor: Color = .red
        public var level = 3
        public var thinking = false
        public var hinting = false
        public var canUndo = false
        public var canRedo = false
        /// "You won: checkmate" once the game is over.
        public var result: String?
        /// Moves so far in Chinese notation.
        public var moves: [String] = []
        public var message: String?

        public var myTurn: Bool {
            guard let st = status else { return false }
            return result == nil && !thinking && st.sideToMove == humanColor
        }
    }

    public static let continueKey = "game.continue"

    public private(set) var state = State() {
        willSet { willChange() }
        didSet { didChange() }
    }

    private let ui: UIDispatcher
    private let engine: Engine
    private let store: KeyValueStore
    private let sound: SoundPlayer
    private var game: Game?
    private var settings = Settings()
    private var aiSearch: UInt64?
    private var hintSearch: UInt64?
    private lazy var listener = Listener(self)

    public init(ui: UIDispatcher, engine: Engine, store: KeyValueStore, sound: SoundPlayer = SilentSound()) {
        self.ui = ui
        self.engine = engine
        self.store = store
        self.sound = sound
    }

    /// Engine reports, hopped to the UI thread (weak: a late answer after the model is gone is dropped).
    final class Listener: EngineListener, @unchecked Sendable {
        weak var model: GameModel?
        init(_ m: GameModel) { model = m }
        func onProgress(report: SearchReport) {}
        func onResult(report: SearchReport) {
            guard let m = model else { return }
            m.ui.post { [weak m] in m?.engineResult(report) }
        }
        func onPuzzleSolved(solution: PuzzleSolution) {}
        func onFailed(searchId: UInt64, message: String) {
            guard let m = model else { return }
            m.ui.post { [weak m] in
                guard let m = m, searchId == m.aiSearch || searchId == m.hintSearch else { return }
                m.aiSearch = nil
                m.hintSearch = nil
                m.publish(message: "The AI failed: \(message)")
            }
        }
    }

    /// A new game from the start position (or `fen`, for puzzles).
    public func newGame(_ settings: Settings, fen: String? = nil) throws {
        cancelSearches()
        self.settings = settings
        let g = try fen.map { try Game.fromFen(fen: $0) } ?? Game(kind: .xiangqi)
        try g.setRules(rules: settings.rules.rules())
        game = g
        try? engine.clear()
        afterChange(lastMove: nil)
    }

    public var canContinue: Bool { store.string(Self.continueKey) != nil }

    /// Continues the saved game; false (with a message) if there is none or it is damaged.
    @discardableResult
    public func continueGame(_ base: Settings) -> Bool {
        guard let text = store.string(Self.continueKey) else { return false }
        cancelSearches()
        do {
            let record = try ContinueRecord.decode(text)
            var s = base
            s.color = record.humanColor
            s.level = record.level
            settings = s
            let g = try Game.load(bytes: record.game)
            game = g
            afterChange(lastMove: try g.history().last?.played)
            return true
        } catch {
            store.set(Self.continueKey, nil)
            publish(message: "The saved game could not be continued: \(readable(error))")
            return false
        }
    }

    public func tap(_ s: Square) {
        guard let g = game else { return }
        let mover = state.myTurn ? state.humanColor : nil
        let (board, result) = state.board.tap(s, mover: mover) { (try? g.legalMovesFrom(square: $0)) ?? [] }
        state.board = board
        if case .chosen(let m) = result { play(m) }
    }

    public func play(_ m: Move) {
        guard let g = game, state.myTurn else { return }
        do {
            let played = try g.play(mv: m)
            cancelSearches()
            moved(played)
        } catch {
            publish(message: readable(error))
        }
    }

    /// Takes back moves until it is the player's turn again.
    public func undo() {
        guard let g = game, state.canUndo else { return }
        cancelSearches()
        var undone = false
        while (try? g.status().canUndo) == true {
            guard (try? g.undo()) != nil else { break }
            undone = true
            if (try? g.status().sideToMove) == settings.color { break }
        }
        if undone { afterChange(lastMove: (try? g.history())?.last?.played) }
    }

    /// Plays again what undo took back, up to the player's next turn.
    public func redo() {
        guard let g = game, !state.thinking else { return }
        var last: PlayedMove?
        while (try? g.status().canRedo) == true {
            guard let p = try? g.redo() else { break }
            last = p
            if (try? g.status().sideToMove) == settings.color { break }
        }
        if let last = last { afterChange(lastMove: last.played) }
    }

    public func hint(movetimeMs: UInt64 = 1000) {
        guard let g = game, state.myTurn, hintSearch == nil else { return }
        hintSearch = try? engine.hint(game: g, movetimeMs: movetimeMs, listener: listener)
        publish()
    }

    /// Leaving the screen: stops the AI; its late answer is ignored. The game stays saved.
    public func close() {
        cancelSearches()
        publish()
    }

    /// Back on the screen: if the AI's turn was cancelled by `close`, it thinks again.
    public func resume() {
        guard let g = game, aiSearch == nil, let st = try? g.status(), st.outcome == nil,
              st.sideToMove != settings.color else { return }
        aiSearch = try? engine.bestMove(game: g, level: UInt8(settings.level), listener: listener)
        publish()
    }

    /// The message was shown.
    public func clearMessage() { state.message = nil }

    public func setSound(_ on: Bool) { settings.sound = on }

    public func fen() -> String? { try? game?.fen() }

    private func cancelSearches() {
        if aiSearch != nil || hintSearch != nil { try? engine.stop() }
        aiSearch = nil
        hintSearch = nil
    }

    private func moved(_ played: PlayedMove) {
        if settings.sound { sound.play(soundOf(played)) }
        afterChange(lastMove: played.played)
    }

    private func engineResult(_ report: SearchReport) {
        guard let g = game else { return }
        if report.searchId == aiSearch {
            aiSearch = nil
            guard let best = report.bestMove else { return publish(message: "The AI found no move") }
            do { moved(try g.play(mv: best.played)) } catch { publish(message: readable(error)) }
        } else if report.searchId == hintSearch {
            hintSearch = nil
            var s = state
            s.board.hint = report.bestMove?.played
            s.hinting = false
            state = s
        }
    }

    private func afterChange(lastMove: Move?) {
        guard let g = game, let status = try? g.status() else { return }
        if status.outcome == nil {
            if let bytes = try? g.save() {
                store.set(Self.continueKey, ContinueRecord(humanColor: settings.color, level: settings.level, game: bytes).encode())
            }
        } else {
            store.set(Self.continueKey, nil)
            if settings.sound { sound.play(.gameOver) }
        }
        if status.outcome == nil && status.sideToMove != settings.color {
            do {
                aiSearch = try engine.bestMove(game: g, level: UInt8(settings.level), listener: listener)
            } catch {
                publish(message: readable(error))
            }
        }
        if let b = try? BoardModel.of(g, flipped: settings.color == .black, lastMove: lastMove) {
            state.board = b
        }
        publish()
    }

    private func publish(message: String? = nil) {
        var s = state
        s.message = message
        if let g = game, let status = try? g.status() {
            let firstHumanPly: UInt32 = settings.color == .red ? 1 : 2
            s.status = status
            s.humanColor = settings.color
            s.level = settings.level
            s.thinking = aiSearch != nil
            s.hinting = hintSearch != nil
            s.canUndo = status.ply >= firstHumanPly
            s.canRedo = status.canRedo && aiSearch == nil
            s.result = status.outcome.map { resultText($0, me: settings.color, words: status.resultText) }
            s.moves = (try? g.historyText(notation: .chinese)) ?? []
        }
        state = s
    }
}

/// The game to continue: colour and level, then `Game.save()` bytes, as Base64 (same layout
/// as Android's).
public struct ContinueRecord: Equatable {
    public let humanColor: Color
    public let level: Int
    public let game: Data

    public init(humanColor: Color, level: Int, game: Data) {
        self.humanColor = humanColor
        self.level = level
        self.game = game
    }

    public func encode() -> String {
        var d = Data([1, humanColor == .red ? 0 : 1, UInt8(level)])
        d.append(game)
        return d.base64EncodedString()
    }

    public struct Damaged: Error, CustomStringConvertible { public let description: String }

    public static func decode(_ text: String) throws -> ContinueRecord {
        guard let d = Data(base64Encoded: text) else { throw Damaged(description: "it is not readable") }
        let b = [UInt8](d)
        guard b.count > 3, b[0] == 1 else { throw Damaged(description: "it is from another version") }
        guard b[1] <= 1 else { throw Damaged(description: "its colour is unknown") }
        guard (1...10).contains(Int(b[2])) else { throw Damaged(description: "its level is out of range") }
        return ContinueRecord(humanColor: b[1] == 0 ? .red : .black, level: Int(b[2]), game: Data(b[3...]))
    }
}
