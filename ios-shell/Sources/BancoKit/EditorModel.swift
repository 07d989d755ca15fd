// The position editor screen (cờ thế set-up): holds Rust's Editor and the brush chosen from
// the palette. Every rule is in Rust — which pieces a game has, where they may stand, the live
// list of problems, the FEN, the mate search of "solve from here". This model keeps the brush,
// runs the slow solve and picture off the UI thread and back, and hands a legal position to the game
// screen ("play from here").
import Foundation

public final class EditorModel: Model {
    /// Where the editor starts from.
    public enum From { case empty, start }

    public struct State: Equatable {
        /// Everything to draw, from Rust; nil before `open`.
        public var view: EditorView?
        /// The piece a tap places; nil: a tap removes.
        public var brush: Piece?
        /// "Solve from here" is looking for a mate.
        public var solving = false
        /// What the last solve found, for the position it was asked for.
        public var solution: EditorSolution?
        /// A refused action, to show once.
        public var message: String?
        /// The position can be played and solved (Rust lists no problem).
        public var playable: Bool { view.map { $0.problems.isEmpty } ?? false }

        /// Jieqi: `color`'s pool of unrevealed pieces as Rust derives it from the board and the
        /// pieces marked captured, as a shelf ("Red: 14 hidden  俥×1 …"); nil in other games.
        public func pool(_ color: Color) -> PoolShelf? {
            guard let v = view, let p = v.pools.first(where: { $0.color == color }) else { return nil }
            return PoolShelf(p)
        }

        /// Jieqi: `color`'s pieces marked captured face up, a counter per kind (empty in other games).
        public func captured(_ color: Color) -> [CapturedCount] {
            view?.captured.filter { $0.piece.color == color } ?? []
        }
    }

    public private(set) var state = State() {
        willSet { willChange() }
        didSet { didChange() }
    }

    private let ui: UIDispatcher
    private let background: DispatchQueue
    private var editor: Editor?

    public init(ui: UIDispatcher, background: DispatchQueue = DispatchQueue(label: "banco.solve", qos: .userInitiated)) {
        self.ui = ui
        self.background = background
    }

    /// The games the editor sets up (Rust's: xiangqi, chess and jieqi), in Rust's order.
    public static func games() -> [GameKind] { editorGames() }

    /// An editor of `kind` on an empty board or the start position; false if refused.
    @discardableResult
    public func open(_ kind: GameKind, from: From = .start) -> Bool {
        replace { try (from == .empty ? Editor.empty(kind: kind) : Editor.start(kind: kind)) }
    }

    /// An editor on the position of a game (the game on screen, an opened record).
    @discardableResult
    public func open(game: Game) -> Bool { replace { try Editor.fromGame(game: game) } }

    /// "Set up from this position": an editor on the current position of the game saved as
    /// `saved` (`VsModel.saved()`, `MatchModel.saved()`): Rust's `Editor.fromGame`.
    public func open(saved: Data) -> Bool { replace { try Editor.fromGame(game: try Game.load(bytes: saved)) } }

    /// An editor on a FEN of `kind` (it may be illegal: its problems are listed).
    @discardableResult
    public func open(_ kind: GameKind, fen: String) -> Bool { replace { try Editor.fromFen(kind: kind, fen: fen) } }

    /// The brush for the next taps: a piece of the palette, or nil to remove.
    public func choose(brush: Piece?) {
        guard let palette = state.view?.palette else { return }
        if let b = brush, !palette.contains(b) { return }
        state.brush = brush
    }

    /// A tap on a screen cell: places the brush's piece (or removes it when it stands there).
    @discardableResult
    public func tap(column: Int, row: Int) -> EditorTap? {
        guard let c = UInt8(exactly: column), let r = UInt8(exactly: row) else { return nil }
        let b = state.brush
        return act { try $0.tap(column: c, row: r, brushColor: b?.color, brushKind: b?.kind, brushFaceDown: b?.faceDown ?? false) }
    }

    /// Puts a piece of the palette (a jieqi face-down one too) on the square named `name` ("e1").
    public func place(_ name: String, _ piece: Piece) {
        guard let sq = square(name) else { return }
        act { try $0.place(square: sq, color: piece.color, kind: piece.kind, faceDown: piece.faceDown) }
    }

    /// Empties the square named `name`.
    public func remove(_ name: String) {
        guard let sq = square(name) else { return }
        act { _ = try $0.remove(square: sq) }
    }

    /// Jieqi: marks `count` of `color`'s pieces of `kind` captured face up, which takes them
    /// out of its pool (Rust refuses the king, more than a side has, and other games).
    public func setCaptured(_ color: Color, _ kind: PieceKind, count: Int) {
        guard let n = UInt8(exactly: count) else { return }
        act { try $0.setCaptured(color: color, kind: kind, count: n) }
    }

    /// Jieqi: the − (`by` -1) or + (`by` 1) of a captured face-up counter of `state.captured`;
    /// none below zero.
    public func changeCaptured(_ counter: CapturedCount, by: Int) {
        setCaptured(counter.piece.color, counter.piece.kind, count: Int(counter.count) + by)
    }

    public func clear() { act { try $0.clear() } }
    public func resetToStart() { act { try $0.resetToStart() } }
    public func flip() { act { try $0.flip() } }
    public func setSideToMove(_ side: Color) { act { try $0.setSideToMove(side: side) } }
    /// Chess castling: allows or forbids one (`kingSide` false: queen side).
    public func setCastling(_ color: Color, kingSide: Bool, allowed: Bool) {
        act { try $0.setCastling(color: color, kingSide: kingSide, allowed: allowed) }
    }

    /// Chess en passant: the square a pawn just passed over ("e3"), or nil (or blank) for
    /// none; a square no pawn passed over is among Rust's problems, and xiangqi refuses any.
    public func setEnPassant(_ name: String?) {
        let trimmed = name?.trimmingCharacters(in: .whitespaces) ?? ""
        if trimmed.isEmpty {
            act { try $0.setEnPassant(square: nil) }
        } else if let sq = square(trimmed) {
            act { try $0.setEnPassant(square: sq) }
        }
    }

    /// Solve from here: a forced mate for the side to move within `maxMate` moves, looked for
    /// off the UI thread; `state.solution` shows it (dropped if the board changed meanwhile).
    public func solve(maxMate: Int = 5) {
        guard let ed = editor, let fen = state.view?.fen, !state.solving else { return }
        state.solving = true
        state.solution = nil
        let ui = self.ui
        background.async { [weak self] in
            let found: Result<EditorSolution, Error> = Result { try ed.solve(maxMate: UInt32(clamping: maxMate)) }
            ui.post {
                guard let self = self, self.editor === ed else { return }
                var s = self.state
                s.solving = false
                switch found {
                case .success(let solution): s.solution = s.view?.fen == fen ? solution : nil
                case .failure(let e): s.message = readable(e)
                }
                self.state = s
            }
        }
    }

    /// Play from here against the computer: the player takes the side to move at the level of
    /// `settings`. False (with every problem as the message) while the position is illegal.
    @discardableResult
    public func playFromHere(_ game: VsModel, settings: Settings, movetimeMs: UInt64 = 1000) -> Bool {
        guard let ed = editor else { return false }
        do {
            let g = try ed.toGame()
            var s = settings
            s.game = try g.kind()
            s.color = try g.status().sideToMove
            let fen = try g.fen()
            return game.newGame(s, fen: fen, movetimeMs: movetimeMs)
        } catch {
            state.message = readable(error)
            return false
        }
    }

    /// The board as it stands (legal or not), as a picture to share.
    public func picture(scale: Float = 2) -> Picture? {
        act { try Picture(svg: try $0.renderSvg(), scale: scale, name: "position") }
    }

    /// The board as it stands, as a picture to share, its PNG drawn off the UI thread: `done`
    /// on the UI thread (a failure becomes the message).
    public func pictureLater(scale: Float = 2, done: @escaping (Picture) -> Void) {
        guard let svg = act({ try $0.renderSvg() }) else { return }
        let ui = self.ui
        background.async { [weak self] in
            let made = Result { try Picture(svg: svg, scale: scale, name: "position") }
            ui.post {
                switch made {
                case .success(let p): done(p)
                case .failure(let e): self?.state.message = readable(e)
                }
            }
        }
    }

    public func clearMessage() { state.message = nil }

    /// Leaving the screen: a solve still running is stopped.
    public func close() {
        try? editor?.stopSolve()
        editor = nil
        state = State()
    }

    private func replace(_ make: () throws -> Editor) -> Bool {
        do {
            let ed = try make()
            editor = ed
            state = State(view: try ed.view())
            return true
        } catch {
            state.message = readable(error)
            return false
        }
    }

    /// Runs an edit; the new view is shown, a refusal becomes the message.
    @discardableResult
    private func act<T>(_ body: (Editor) throws -> T) -> T? {
        guard let ed = editor else { return nil }
        do {
            let r = try body(ed)
            let view = try ed.view()
            var s = state
            if view.fen != s.view?.fen { s.solution = nil }
            s.view = view
            state = s
            return r
        } catch {
            state.message = readable(error)
            return nil
        }
    }

    private func square(_ name: String) -> UInt8? {
        let sq = state.view?.cells.first { $0.name == name }?.square
        if sq == nil { state.message = "There is no square \(name) on this board" }
        return sq
    }
}
