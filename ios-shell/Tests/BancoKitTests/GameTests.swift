// The game against the AI: a scripted game through taps, the end of a game, undo/redo by whole
// turns, leaving while the AI thinks, save and continue.
import Foundation
import BancoKit

final class GameFixture {
    let ui = TestUI()
    let engine: Engine
    let sounds = SoundLog()
    let model: GameModel

    init(store: KeyValueStore = MemoryStore()) throws {
        engine = try Engine(hashMib: 16)
        model = GameModel(ui: ui, engine: engine, store: store, sound: sounds)
    }

    var state: GameModel.State { ui.call { model.state } }

    @discardableResult
    func awaitMyTurn(_ ply: UInt32) throws -> GameModel.State {
        try ui.wait("the player's turn at ply \(ply)", { self.model.state }) {
            !$0.thinking && $0.status?.ply == ply && ($0.myTurn || $0.result != nil)
        }
    }

    func tapMove(_ from: Square, _ to: Square) {
        ui.call { model.tap(from) }
        ui.call { model.tap(to) }
    }

    /// Taps `from`-`to` if it is legal now, else the first legal move (the AI's replies vary).
    func tapScripted(_ from: String, _ to: String) throws {
        let legal = try ui.call { try Game.fromFen(fen: model.fen()!).legalMoves() }
        let m = legal.first { $0.from == square(from) && $0.to == square(to) } ?? legal[0]
        tapMove(m.from, m.to)
    }

    func close() { ui.call { model.close() } }
}

func gameTests(_ s: Suite) {
    s.test("a scripted game against the AI, played by taps") {
        let f = try GameFixture()
        defer { f.close() }
        try f.ui.call { try f.model.newGame(Settings(level: 1)) }
        try f.awaitMyTurn(0)
        let script = [("h2", "e2"), ("h0", "g2"), ("i0", "h0"), ("b0", "c2")]
        for (i, step) in script.enumerated() {
            let legal = try f.ui.call { try Game.fromFen(fen: f.model.fen()!).legalMoves() }
            let m = legal.first { $0.from == square(step.0) && $0.to == square(step.1) } ?? legal[0]
            f.tapMove(m.from, m.to)
            let after = f.state
            try check(after.thinking || after.result != nil || after.status?.ply == UInt32(2 * (i + 1)), "the AI answers")
            let st = try f.awaitMyTurn(UInt32(2 * (i + 1)))
            if st.result != nil { break }
            try eq(2 * (i + 1), st.moves.count, "moves listed")
            try check(st.board.lastMove != nil && st.board.lastMove != m, "the AI's move is the last move")
        }
        try check(!f.sounds.all.isEmpty)
        try check(f.ui.call { f.model.canContinue }, "saved after every move")
    }

    s.test("the game ends: mate in one by taps, saved game cleared") {
        let f = try GameFixture()
        defer { f.close() }
        try f.ui.call { try f.model.newGame(Settings(level: 1), fen: "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1") }
        try f.awaitMyTurn(0)
        f.tapMove(square("e1"), square("d1"))
        let st = try f.ui.wait("game over", { f.model.state }) { $0.result != nil }
        try eq("You won: checkmate", st.result)
        try check(!f.ui.call { f.model.canContinue })
        try eq(Sound.gameOver, f.sounds.all.last)
    }

    s.test("undo and redo by whole turns; leaving while the AI thinks") {
        let f = try GameFixture()
        defer { f.close() }
        try f.ui.call { try f.model.newGame(Settings(level: 1, sound: false)) }
        try f.awaitMyTurn(0)
        f.tapMove(square("h2"), square("e2"))
        try f.awaitMyTurn(2)
        try f.tapScripted("h0", "g2")
        try f.awaitMyTurn(4)
        let fen4 = f.ui.call { f.model.fen() }
        f.ui.call { f.model.undo() }
        try eq(2, f.state.status?.ply)
        try check(f.state.canRedo && f.state.myTurn)
        f.ui.call { f.model.redo() }
        try eq(4, f.state.status?.ply)
        try eq(fen4, f.ui.call { f.model.fen() })
        f.ui.call { f.model.undo(); f.model.undo() }
        try eq(0, f.state.status?.ply)
        try check(!f.state.canUndo && f.sounds.all.isEmpty)

        try f.ui.call { try f.model.newGame(Settings(level: 10)) }
        try f.awaitMyTurn(0)
        f.tapMove(square("b2"), square("e2"))
        try check(f.state.thinking)
        f.ui.call { f.model.close() }
        try check(!f.state.thinking)
        let deadline = Date().addingTimeInterval(3)
        while (try f.engine.isSearching()) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        try check(!(try f.engine.isSearching()), "the engine stopped")
        Thread.sleep(forTimeInterval: 0.2)
        try eq(1, f.state.status?.ply, "no AI move after leaving")
        try f.ui.call { try f.model.newGame(Settings(level: 1)) }
        try f.awaitMyTurn(0)
        f.tapMove(square("b2"), square("e2"))
        f.ui.call { f.model.close(); f.model.resume() }
        try f.awaitMyTurn(2)
    }

    s.test("a hint for the player") {
        let f = try GameFixture()
        defer { f.close() }
        try f.ui.call { try f.model.newGame(Settings(level: 1)) }
        try f.awaitMyTurn(0)
        f.ui.call { f.model.hint(movetimeMs: 300) }
        try check(f.state.hinting)
        let st = try f.ui.wait("the hint", { f.model.state }) { !$0.hinting }
        guard let hint = st.board.hint else { throw TestFailure(description: "no hint: \(st)") }
        try check(try f.ui.call { try Game.fromFen(fen: f.model.fen()!).isLegal(mv: hint) })
        f.tapMove(hint.from, hint.to)
        try eq(nil, f.state.board.hint, "the hint goes once a move is played")
    }

    s.test("puzzles: each is a legal position with the mate it promises") {
        let engine = try Engine(hashMib: 16)
        for p in Puzzles.all {
            let listener = PuzzleListener()
            _ = try engine.solvePuzzle(game: try Game.fromFen(fen: p.fen), maxMoves: UInt32(p.mateIn),
                                       timeLimitMs: 20_000, listener: listener)
            let deadline = Date().addingTimeInterval(30)
            while listener.solution == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            guard let solution = listener.solution else { throw TestFailure(description: "\(p.name): no answer") }
            guard let mate = solution.mateIn else { throw TestFailure(description: "\(p.name): no mate found") }
            try check(Int(mate) <= p.mateIn, "\(p.name): mate in \(mate), promised \(p.mateIn)")
        }
    }

    s.test("save and continue: another model continues the game") {
        let store = MemoryStore()
        let first = try GameFixture(store: store)
        try first.ui.call { try first.model.newGame(Settings(level: 2, color: .black)) }
        try check(try first.awaitMyTurn(1).board.flipped)
        try first.tapScripted("h9", "g7")
        try first.awaitMyTurn(3)
        let fen = first.ui.call { first.model.fen() }
        first.close()
        let second = try GameFixture(store: store)
        try check(second.ui.call { second.model.continueGame(Settings()) })
        let st = try second.awaitMyTurn(3)
        try eq(fen, second.ui.call { second.model.fen() })
        try eq(Color.black, st.humanColor)
        try eq(2, st.level)
        try check(st.board.flipped && st.board.lastMove != nil)
        second.close()
        store.set(GameModel.continueKey, ContinueRecord(humanColor: .red, level: 3, game: Data([1, 2, 3])).encode())
        let third = try GameFixture(store: store)
        try check(!third.ui.call { third.model.continueGame(Settings()) })
        try check(third.state.message?.contains("could not be continued") == true)
        try check(!third.ui.call { third.model.canContinue })
    }
}

final class PuzzleListener: EngineListener, @unchecked Sendable {
    private let lock = NSLock()
    private var found: PuzzleSolution?
    var solution: PuzzleSolution? { lock.lock(); defer { lock.unlock() }; return found }
    func onProgress(report: SearchReport) {}
    func onResult(report: SearchReport) {}
    func onPuzzleSolved(solution: PuzzleSolution) { lock.lock(); found = solution; lock.unlock() }
    func onFailed(searchId: UInt64, message: String) {}
}
