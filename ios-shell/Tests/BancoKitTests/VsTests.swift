// Games against the computer through VsModel, as the app plays them: taps on the cells of
// Rust's board, the computer's answers hopped to the UI thread, undo/redo by whole turns
// (also while the computer thinks), hints, puzzles, the promotion picker, sounds, and the
// game kept to continue. Xiangqi and chess.
import Foundation
import BancoKit

final class VsFixture {
    let ui = TestUI()
    let sounds = SoundLog()
    let store: KeyValueStore
    let model: VsModel

    init(store: KeyValueStore = MemoryStore()) {
        self.store = store
        model = VsModel(ui: ui, store: store, sound: sounds)
    }

    var state: VsModel.State { ui.call { model.state } }

    /// Waits for a game state that satisfies `want`.
    @discardableResult
    func wait(_ what: String, _ want: @escaping (VsState) -> Bool) throws -> VsState {
        try ui.wait(what, { self.model.state.game }) { $0.map(want) ?? false }!
    }

    /// The player's turn with `moves` moves played (or the end).
    @discardableResult
    func myTurn(_ moves: Int) throws -> VsState {
        try wait("the player's turn after \(moves) moves") { ($0.yourTurn && $0.moves.count == moves) || $0.outcome != nil }
    }

    /// A new xiangqi game at level 10 with a minute a move; the player's `from`-`to`, and
    /// the computer thinking about its answer.
    func computerThinksAfter(_ from: String, _ to: String) throws {
        ui.call { _ = model.newGame(Settings(level: 10), movetimeMs: 60_000) }
        try myTurn(0)
        try tap(from, to)
        try wait("the computer thinks") { $0.thinking }
    }

    /// Taps the cells showing the squares named `names`, in order.
    func tap(_ names: String...) throws {
        for n in names {
            let c = try cell(state.game?.board, n)
            ui.call { model.tap(column: Int(c.column), row: Int(c.row)) }
        }
    }

    /// Plays the first legal move by taps (the queen when the picker opens).
    func tapFirstLegal() throws {
        guard let g = state.game else { throw TestFailure(description: "no game") }
        let m = try firstLegal(g.kind, g.fen)
        let promotes = try Game.fromFen(kind: g.kind, fen: g.fen).legalMoves()[0].promotion != nil
        try tap(m.from, m.to)
        if promotes {
            _ = try wait("the picker") { $0.board.promotion != nil }
            ui.call { model.choosePromotion(.queen) }
        }
    }

    func close() { ui.call { model.close() } }
}

let mateInOne = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"
let promotion = "8/P6k/8/8/8/8/8/K7 w - - 0 1"

func vsTests(_ s: Suite) {
    s.test("xiangqi: a game against the computer, played by taps") {
        let f = VsFixture()
        defer { f.close() }
        try check(f.ui.call { f.model.newGame(Settings(level: 1), movetimeMs: 100) })
        let first = try f.myTurn(0)
        try eq([9, 10], [first.board.width, first.board.height])
        try check(!first.board.flipped)
        for (i, step) in [("h2", "e2"), ("h0", "g2"), ("i0", "h0"), ("b0", "c2")].enumerated() {
            let st = f.state.game!
            let legal = try Game.fromFen(kind: .xiangqi, fen: st.fen).legalMoves()
                .map { (try squareName(kind: .xiangqi, index: $0.from), try squareName(kind: .xiangqi, index: $0.to)) }
            let m = legal.first { $0 == step } ?? legal[0]
            try f.tap(m.0)
            try f.tap(m.1)
            let after = try f.myTurn(2 * (i + 1))
            if after.outcome != nil { break }
            try eq(Color.black, after.lastMove?.by, "the computer's move is the last move")
            try eq(2, after.board.cells.filter { $0.lastMove }.count)
        }
        try check(!f.sounds.all.isEmpty, "moves were heard")
        try check(f.ui.call { f.model.canContinue }, "kept to continue")
    }

    s.test("xiangqi: selection and targets come from Rust; the picker never opens") {
        let f = VsFixture()
        defer { f.close() }
        f.ui.call { _ = f.model.newGame(Settings(level: 1)) }
        try f.myTurn(0)
        try f.tap("h2")
        let selected = try f.wait("the cannon selected") { (try? cell($0.board, "h2").selected) == true }
        try eq(12, selected.board.cells.filter { $0.target }.count)
        try f.tap("e5")
        try f.wait("cleared") { $0.board.cells.allSatisfy { !$0.selected && !$0.target } }
        try eq(nil, f.state.promotion)
    }

    s.test("xiangqi: the game ends — a mate in one, the puzzle, results and sounds") {
        let f = VsFixture()
        defer { f.close() }
        f.ui.call { _ = f.model.newGame(Settings(level: 1), fen: mateInOne) }
        try f.myTurn(0)
        try check(!f.ui.call { f.model.canContinue }, "a new game is kept from the player's first move")
        try f.tap("e1", "d1")
        let over = try f.wait("mate") { $0.outcome != nil }
        try eq("You won: checkmate", over.result)
        try eq([Sound.check, .gameOver], f.sounds.all)
        try check(!f.ui.call { f.model.canContinue }, "a finished game is not kept")

        let p = VsFixture()
        defer { p.close() }
        let puzzle = builtinPuzzles()[0]
        try check(p.ui.call { p.model.puzzle(puzzle, settings: Settings(), movetimeMs: 100) })
        try eq(1, try p.myTurn(0).puzzle?.movesLeft)
        try p.tap("e1", "d1")
        let solved = try p.wait("solved") { $0.puzzle?.solved == true }
        try eq("You won: checkmate", solved.result)
        try check(!p.ui.call { p.model.canContinue }, "puzzles are not kept")
    }

    s.test("xiangqi: undo and redo by whole turns; undo while the computer thinks") {
        let f = VsFixture()
        defer { f.close() }
        f.ui.call { _ = f.model.newGame(Settings(level: 1, sound: false), movetimeMs: 100) }
        try f.myTurn(0)
        try f.tap("h2", "e2")
        try f.myTurn(2)
        try f.tapFirstLegal()
        let four = try f.myTurn(4)
        f.ui.call { f.model.undo() }
        let two = try f.wait("undone") { $0.moves.count == 2 }
        try check(two.canRedo && two.yourTurn)
        f.ui.call { f.model.redo() }
        try eq(four.fen, try f.wait("redone") { $0.moves.count == 4 }.fen)
        f.ui.call { f.model.undo(); f.model.undo() }
        let none = try f.wait("back to the start") { $0.moves.isEmpty }
        try check(!none.canUndo)
        try eq([], f.sounds.all, "sound off")

        try f.computerThinksAfter("b2", "e2")
        f.ui.call { f.model.undo() }
        let back = try f.wait("undone while thinking") { $0.moves.isEmpty && !$0.thinking }
        try check(back.yourTurn && back.canRedo)
        try eq(nil, f.state.message)
    }

    s.test("xiangqi: leaving while the computer thinks stops it; continuing resumes its turn") {
        let store = MemoryStore()
        let f = VsFixture(store: store)
        try f.computerThinksAfter("h2", "e2")
        f.close()
        Thread.sleep(forTimeInterval: 0.3)
        try eq(1, f.state.game?.moves.count, "no answer after leaving")
        try check(f.ui.call { f.model.canContinue })
        // Back: the kept game continues with the computer to move (one second per move now).
        try check(f.ui.call { f.model.continueGame(Settings()) })
        try check(try f.wait("thinking again") { $0.moves.count == 1 }.thinking)
        let answered = try f.myTurn(2)
        try eq(10, answered.level)
        f.close()
    }

    s.test("xiangqi: in the background the computer stops and the game is kept; back, it goes on") {
        let store = MemoryStore()
        let f = VsFixture(store: store)
        try f.computerThinksAfter("h2", "e2")
        f.ui.call { f.model.pause() }
        try check(f.ui.call { f.model.state.paused })
        Thread.sleep(forTimeInterval: 0.3)
        try eq(1, f.state.game?.moves.count, "no answer while in the background")
        try check(f.ui.call { f.model.resume(Settings()) })
        try check(!(f.ui.call { f.model.state.paused }))
        try check(try f.wait("thinking again") { $0.moves.count == 1 }.thinking)
        _ = try f.myTurn(2)
        f.close()
    }

    s.test("xiangqi: a hint for the player") {
        let f = VsFixture()
        defer { f.close() }
        f.ui.call { _ = f.model.newGame(Settings(level: 1), movetimeMs: 200) }
        try f.myTurn(0)
        f.ui.call { f.model.hint() }
        let st = try f.wait("the hint") { $0.hint != nil && !$0.hinting }
        let hinted = st.board.cells.filter { $0.hint }.map { $0.name }
        try eq(2, hinted.count)
        let hint = st.hint!
        let from = try squareName(kind: .xiangqi, index: hint.played.from)
        let to = try squareName(kind: .xiangqi, index: hint.played.to)
        try check(hinted.contains(from) && hinted.contains(to))
        try f.tap(from, to)
        let moved = try f.wait("played") { !$0.moves.isEmpty }
        try eq(nil, moved.hint, "the hint goes once a move is played")
    }

    s.test("xiangqi: save and continue in another model; damaged records are dropped") {
        let store = MemoryStore()
        let first = VsFixture(store: store)
        first.ui.call { _ = first.model.newGame(Settings(level: 2, color: .black), movetimeMs: 100) }
        let opened = try first.myTurn(1)
        try check(opened.board.flipped)
        try first.tapFirstLegal()
        let three = try first.myTurn(3)
        first.close()
        let second = VsFixture(store: store)
        defer { second.close() }
        try check(second.ui.call { second.model.continueGame(Settings()) })
        let st = try second.wait("continued") { _ in true }
        try eq(three.fen, st.fen)
        try eq(three.moves, st.moves)
        try eq(Color.black, st.human)
        try eq(2, st.level)
        try check(st.board.flipped && st.lastMove != nil && st.yourTurn)
        for damaged in ["not base64!", Data([1, 2, 3]).base64EncodedString()] {
            store.set(VsModel.continueKey, damaged)
            let third = VsFixture(store: store)
            try check(!third.ui.call { third.model.continueGame(Settings()) })
            try check(third.state.message?.contains("could not be continued") == true, "\(third.state)")
            try check(!third.ui.call { third.model.canContinue })
            try eq(damaged, store.string(VsModel.continueKey + ".damaged"), "set aside")
        }
    }

    s.test("levels outside 1–10 are refused with Rust's reason, not clamped") {
        let store = MemoryStore()
        let f = VsFixture(store: store)
        defer { f.close() }
        try check(!f.ui.call { f.model.newGame(Settings(level: 11)) })
        try eq("level 11 does not exist: choose 1 (beginner) to 10 (full strength)", f.state.message)
        f.ui.call { f.model.clearMessage() }
        f.ui.call { _ = f.model.newGame(Settings(level: 1)) }
        try f.myTurn(0)
        f.ui.call { f.model.setLevel(0) }
        try check(f.state.message?.contains("level 0 does not exist") == true)
        try f.tap("h2", "e2")
        try f.myTurn(2)
        f.ui.call { f.model.setLevel(7) }
        try f.wait("level 7") { $0.level == 7 }
        // The level changed in the game is kept with it: continued, it plays at 7 whatever
        // the settings say.
        let again = VsFixture(store: store)
        defer { again.close() }
        try check(again.ui.call { again.model.continueGame(Settings(level: 1)) })
        try eq(7, try again.myTurn(2).level)
    }

    s.test("a new game started by mistake and left before the player's move keeps the game to continue") {
        let store = MemoryStore()
        let first = VsFixture(store: store)
        first.ui.call { _ = first.model.newGame(Settings(level: 1, sound: false), movetimeMs: 50) }
        try first.myTurn(0)
        try first.tap("h2", "e2")
        try first.myTurn(2)
        first.close()
        let kept = store.string(VsModel.continueKey)
        try check(kept != nil)
        // "Play Chess" tapped by mistake, as Black: the computer moves, the player does not.
        let f = VsFixture(store: store)
        defer { f.close() }
        try check(f.ui.call { f.model.newGame(Settings(game: .chess, level: 1, color: .black, sound: false), movetimeMs: 50) })
        try f.myTurn(1)
        try eq(kept, store.string(VsModel.continueKey), "the game to continue stays")
        // Away and back: the new game goes on (held in memory), the kept one still stays.
        f.ui.call { f.model.pause() }
        try check(f.ui.call { f.model.resume(Settings()) })
        try eq(GameKind.chess, try f.myTurn(1).kind)
        try eq(kept, store.string(VsModel.continueKey), "pausing a new game keeps the old one")
        // Continued: the xiangqi game; a new game replaces it at the player's first move.
        try check(f.ui.call { f.model.continueGame(Settings()) })
        let back = try f.myTurn(2)
        try eq(GameKind.xiangqi, back.kind)
        try eq("炮二平五", back.moves.first)
        f.ui.call { _ = f.model.newGame(Settings(game: .chess, level: 1, sound: false), movetimeMs: 50) }
        try f.myTurn(0)
        try eq(kept, store.string(VsModel.continueKey))
        try f.tap("e2", "e4")
        try f.myTurn(2)
        try check(store.string(VsModel.continueKey) != kept, "the new game is kept once played")
    }

    s.test("a game to continue saved by a newer Banco is kept (update the app); a damaged one is dropped") {
        let store = MemoryStore()
        var newer = try Game(kind: .xiangqi).save()
        newer[newer.startIndex + 8] = 200
        let text = newer.base64EncodedString()
        store.set(VsModel.continueKey, text)
        let f = VsFixture(store: store)
        defer { f.close() }
        try check(!f.ui.call { f.model.continueGame(Settings()) })
        try check(f.state.message?.contains("update the app") == true, "\(f.state)")
        try check(f.ui.call { f.model.canContinue }, "still offered to continue")
        try eq(text, store.string(VsModel.continueKey), "kept as it was")
        // A new game, played: the newer game is still not written over (Rust's kept-record policy).
        f.ui.call { _ = f.model.newGame(Settings(level: 1, sound: false), movetimeMs: 50) }
        try f.myTurn(0)
        try f.tap("h2", "e2")
        try f.myTurn(2)
        try eq(text, store.string(VsModel.continueKey), "a newer Banco's game is never written over")
    }

    s.test("the move list is numbered by Rust from the position: Black first from move 7") {
        let f = VsFixture()
        defer { f.close() }
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7"
        try check(f.ui.call { f.model.newGame(Settings(game: .chess, level: 1, color: .black), fen: fen, movetimeMs: 50) })
        try eq([String](), try f.myTurn(0).moveList)
        try f.tap("e8", "d8")
        let st = try f.myTurn(2)
        try eq(2, st.moveList.count)
        try check(st.moveList[0] == "7... Kd8" && st.moveList[1].hasPrefix("8. "))
    }

    s.test("chess: taps, the promotion picker, undo, continue from the kept bytes") {
        let store = MemoryStore()
        let f = VsFixture(store: store)
        f.ui.call { _ = f.model.newGame(Settings(game: .chess, level: 1), movetimeMs: 100) }
        let first = try f.myTurn(0)
        try eq([8, 8], [first.board.width, first.board.height])
        try eq(32, first.board.cells.filter { $0.dark }.count)
        let (a1, h1) = (try cell(first.board, "a1"), try cell(first.board, "h1"))
        try check(a1.dark && !h1.dark, "a1 dark, h1 light")
        try f.tap("e2", "e4")
        let two = try f.myTurn(2)
        try eq("e4", two.moves[0])

        f.ui.call { _ = f.model.newGame(Settings(game: .chess, level: 1), fen: promotion, movetimeMs: 100) }
        try f.myTurn(0)
        try f.tap("a7", "a8")
        // The picker is part of Rust's board state.
        _ = try f.wait("the picker") { $0.board.promotion != nil }
        try eq(Set([PieceKind.queen, .rook, .bishop, .knight]), Set(f.state.promotion ?? []))
        f.ui.call { f.model.cancelPromotion() }
        try f.wait("the pawn deselected") { $0.board.promotion == nil && $0.board.cells.allSatisfy { !$0.selected && !$0.target } }
        try eq(nil, f.state.promotion)
        try f.tap("a7", "a8")
        _ = try f.wait("the picker again") { $0.board.promotion != nil }
        f.ui.call { f.model.choosePromotion(.queen) }
        let answered = try f.myTurn(2)
        try eq("a8=Q", answered.moves[0])
        try eq("♕", try cell(answered.board, "a8").piece?.glyph)
        try eq(nil, f.state.promotion)
        f.ui.call { f.model.undo() }
        let undone = try f.wait("undone") { $0.moves.isEmpty }
        try eq(PieceKind.pawn, try cell(undone.board, "a7").piece?.kind)
        f.ui.call { f.model.redo() }
        let redone = try f.wait("redone") { $0.moves.count == 2 }
        f.close()

        let again = VsFixture(store: store)
        defer { again.close() }
        try check(again.ui.call { again.model.continueGame(Settings()) })
        let st = try again.wait("continued") { _ in true }
        try eq(GameKind.chess, st.kind)
        try eq(redone.fen, st.fen)
        try eq(["a8=Q"], Array(st.moves.prefix(1)))
    }

    s.test("chess: a game against the computer reaches its end or 40 plies, by taps") {
        let f = VsFixture()
        defer { f.close() }
        f.ui.call { _ = f.model.newGame(Settings(game: .chess, level: 1, color: .black), movetimeMs: 50) }
        var st = try f.myTurn(1)
        try check(st.board.flipped)
        try eq("h1", st.board.cells[0].name)
        while st.outcome == nil && st.moves.count < 40 {
            let n = st.moves.count
            try f.tapFirstLegal()
            st = try f.myTurn(n + 2)
        }
        try check(st.outcome != nil || st.moves.count >= 40, "\(st.moves)")
        try check(f.sounds.all.count >= min(st.moves.count, 40) - 1, "a sound per move")
    }

    s.test("chess: a draw claimed with the player's move (FIDE 9.2.1.1), undone; a claim that brings no draw refused") {
        // White's rook and king against the king, 99 plies without a capture or a pawn move:
        // the hundredth completes the fifty moves, and a claim may be made with it.
        let fifty = "8/8/4k3/8/8/3RK3/8/8 w - - 99 80"
        var kept: ClaimableMove?
        do {
            let f = VsFixture()
            defer { f.close() }
            try check(f.ui.call { f.model.newGame(Settings(game: .chess, level: 1, color: .red), fen: fifty, movetimeMs: 50) })
            let st = try f.myTurn(0)
            try eq(nil, st.claimableDraw, "no draw to claim before the move")
            guard let rd1 = f.state.claimableWith.first(where: { $0.mv.text == "Rd1" }) else {
                throw TestFailure(description: "Rd1 claims: \(f.state.claimableWith)")
            }
            kept = rd1
            try eq(DrawReason.fiftyMoveRule, rd1.reason)
            f.ui.call { f.model.claimDraw(with: rd1) }
            let over = try f.wait("the claim") { $0.outcome != nil }
            try eq(Outcome.draw(reason: .fiftyMoveRule), over.outcome)
            try eq(Color.red, over.drawClaimedBy, "the player claimed")
            try eq(["Rd1"], over.moves)
            try check(f.state.claimableWith.isEmpty, "nothing to claim after the end")
            try check(!f.ui.call { f.model.canContinue }, "a finished game is not kept to continue")
            // Undo takes back the claim and its move.
            f.ui.call { f.model.undo() }
            let back = try f.wait("the claim undone") { $0.outcome == nil && $0.moves.isEmpty }
            try check(back.yourTurn && back.claimableWith.contains { $0.mv.text == "Rd1" }, "\(back)")
        }
        do {
            let f = VsFixture()
            defer { f.close() }
            // Two plies earlier Rd1 completes nothing: the claim is refused, nothing played.
            let early = fifty.replacingOccurrences(of: " 99 ", with: " 97 ")
            try check(f.ui.call { f.model.newGame(Settings(game: .chess, level: 1, color: .red), fen: early, movetimeMs: 50) })
            let st = try f.myTurn(0)
            try check(st.claimableWith.isEmpty, "\(st.claimableWith)")
            guard let rd1 = kept else { throw TestFailure(description: "no claim kept") }
            f.ui.call { f.model.claimDraw(with: rd1) }
            try check(f.state.message?.hasPrefix("there is no draw to claim with Rd1") == true, "\(String(describing: f.state.message))")
            try eq(nil, f.state.game?.outcome)
            try eq([], f.state.game?.moves)
        }
    }
}
