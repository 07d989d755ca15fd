// VsComputer: a whole game against the computer in Rust — taps, the computer's turn on a
// Rust thread, undo/redo by whole turns (also while it thinks), hints, resignation, levels,
// flip, the continue record, puzzles; xiangqi and chess (with the promotion choice).
import Foundation

final class StateInbox: VsListener, @unchecked Sendable {
    let states = Inbox<VsState>()
    func onState(state: VsState) { states.put(state) }

    /// The next state that satisfies `want`.
    func next(_ what: String, _ seconds: Double = 30, _ want: @escaping (VsState) -> Bool) throws -> VsState {
        try states.next(what, seconds) { want($0) ? $0 : nil }
    }
}

func vsSettings(_ kind: GameKind, _ human: Color = .red, level: UInt8 = 1, movetimeMs: UInt64 = 50,
                rules: Rules? = nil, fen: String? = nil) -> VsSettings {
    VsSettings(kind: kind, human: human, level: level, rules: rules, movetimeMs: movetimeMs, fen: fen)
}

/// The cell at a screen position.
func at(_ b: BoardView, _ column: Int, _ row: Int) -> Cell { b.cells[row * Int(b.width) + column] }

/// Plays the first legal move of the position in `state` (for games that must only go on).
func playFirst(_ vs: VsComputer, _ state: VsState) throws -> PlayedMove {
    let m = try Game.fromFen(kind: state.kind, fen: state.fen).legalMoves()[0]
    return try vs.play(mv: m)
}

func vsComputerTests(_ s: Suite) {
    s.test("vs computer (xiangqi): taps, the computer's answer, hint, level, flip") {
        let l = StateInbox()
        let vs = try VsComputer(settings: vsSettings(.xiangqi), listener: l)
        defer { try? vs.end() }
        let first = try l.next("the first state") { $0.yourTurn }
        try eq(GameKind.xiangqi, first.kind)
        try eq([9, 10, 90], [Int(first.board.width), Int(first.board.height), first.board.cells.count])
        try check(!first.board.flipped && !first.thinking && !first.canUndo && !first.canRedo)
        try eq([Color.red, .red], [first.human, first.sideToMove])
        try eq(xiangqiStart, first.fen)
        try eq("a9", at(first.board, 0, 0).name)
        try check(first.board.cells.allSatisfy { !$0.dark }, "no checkered xiangqi board")
        try eq("炮", at(first.board, 7, 7).piece?.glyph)
        try eq(TapResult.ignored, try vs.tap(column: 4, row: 5))
        try eq(TapResult.ignored, try vs.tap(column: 0, row: 0), "a black piece")
        try eq(TapResult.selected(square: 25), try vs.tap(column: 7, row: 7))
        let selected = try vs.state().board
        try check(at(selected, 7, 7).selected)
        try eq(12, selected.cells.filter { $0.target }.count)
        try eq(12, try vs.legalMovesFrom(square: 25).count)
        try eq(0, try vs.legalMovesFrom(square: 81).count, "a black rook")
        try eq(TapResult.cleared, try vs.tap(column: 4, row: 4))
        _ = try vs.tap(column: 7, row: 7)
        try eq(TapResult.moved(played: try move(.xiangqi, "h2", "e2")), try vs.tap(column: 4, row: 7))
        let answered = try l.next("the computer's answer") { $0.moves.count == 2 && $0.yourTurn }
        try eq("炮二平五", answered.moves[0])
        try eq(Color.black, answered.lastMove?.by)
        try eq(2, answered.board.cells.filter { $0.lastMove }.count)
        try check(answered.canUndo && !answered.canRedo && answered.outcome == nil && answered.result == nil)
        try check(l.states.all.contains { $0.thinking }, "the computer was seen thinking")

        try vs.hint()
        let hinted = try l.next("the hint") { $0.hint != nil && !$0.hinting }
        try eq(2, hinted.board.cells.filter { $0.hint }.count)
        try check(try Game.fromFen(kind: .xiangqi, fen: hinted.fen).isLegal(mv: hinted.hint!.played))

        try eq("level 11 does not exist: choose 1 (beginner) to 10 (full strength)",
               try fails(.invalidArgument) { try vs.setLevel(level: 11) })
        try fails(.invalidArgument) { try vs.setLevel(level: 0) }
        try vs.setLevel(level: 4)
        try eq(4, try vs.state().level)
        try vs.flip()
        let flipped = try vs.state().board
        try check(flipped.flipped)
        try eq(["i0", "a9"], [flipped.cells.first!.name, flipped.cells.last!.name])
        try fails(.notAvailable) { try vs.claimDraw() }
        try fails(.notAvailable) { try vs.redo() }
    }

    s.test("vs computer: undo while the computer thinks, redo, resign, save and resume") {
        let l = StateInbox()
        let vs = try VsComputer(settings: vsSettings(.xiangqi, level: 10, movetimeMs: 60_000), listener: l)
        _ = try l.next("the first state") { $0.yourTurn }
        try fails(.notAvailable) { try vs.undo() }
        _ = try vs.playText(text: "C2=5")
        try check(try vs.state().thinking, "the computer thinks for a minute")
        try fails(.notAvailable) { _ = try vs.playText(text: "h9g7") }
        try vs.undo()
        let undone = try vs.state()
        try check(!undone.thinking && undone.yourTurn && undone.moves.isEmpty && undone.canRedo, "\(undone)")
        try vs.setLevel(level: 1)
        try vs.redo()
        try check(try vs.state().thinking, "redo gives the computer its turn again")
        try vs.end()
        try fails(.notAvailable) { _ = try vs.state() }
        try fails(.notAvailable) { try vs.undo() }

        let l2 = StateInbox()
        let quick = try VsComputer(settings: vsSettings(.xiangqi, .black, level: 2), listener: l2)
        defer { try? quick.end() }
        let opened = try l2.next("the computer opens") { $0.yourTurn }
        try eq(1, opened.moves.count)
        try check(opened.board.flipped && !opened.canUndo, "the computer's first move alone is not undone")
        _ = try playFirst(quick, opened)
        let three = try l2.next("three moves") { $0.moves.count == 3 && $0.yourTurn }
        try quick.undo()
        let back = try l2.next("undone by a whole turn") { $0.moves.count == 1 }
        try check(back.canRedo && back.yourTurn)
        try quick.redo()
        try eq(three.moves, try l2.next("redone") { $0.moves.count == 3 }.moves)
        let saved = try quick.save()
        try check(!saved.isEmpty)
        try quick.resign()
        let over = try l2.next("resigned") { $0.outcome != nil }
        try eq(Outcome.win(winner: .red, reason: .resignation), over.outcome)
        try eq("You lost: resignation", over.result)
        try check(!over.yourTurn && !over.thinking)
        try fails(.gameOver) { _ = try playFirst(quick, over) }
        try fails(.gameOver) { try quick.hint() }
        try fails(.gameOver) { try quick.resign() }
        try check(over.canUndo, "undo after the end")

        let l3 = StateInbox()
        let resumed = try VsComputer.resume(saved: saved, settings: vsSettings(.xiangqi, .red, level: 9), listener: l3)
        defer { try? resumed.end() }
        let st = try l3.next("the resumed game") { _ in true }
        try eq([Color.black], [st.human])
        try eq(2, st.level, "colour and level come from the file")
        try eq(three.fen, st.fen)
        try eq(three.moves, st.moves)
        try check(st.yourTurn && st.board.flipped && st.lastMove != nil)
        // A plain Game's save continues too (the one save format).
        let g = try Game(kind: .xiangqi)
        _ = try g.playText(text: "h2e2", notation: nil)
        let l4 = StateInbox()
        let fromGame = try VsComputer.resume(saved: try g.save(), settings: vsSettings(.xiangqi, .black, level: 3), listener: l4)
        defer { try? fromGame.end() }
        let fg = try l4.next("a Game continued") { $0.yourTurn }
        try eq([Color.black], [fg.human])
        try eq(3, fg.level)
    }

    s.test("vs computer: puzzles solved, a wrong move taken back") {
        let puzzle = builtinPuzzles()[0]
        try eq(1, puzzle.mateIn)
        let l = StateInbox()
        let vs = try VsComputer.puzzle(puzzle: puzzle, movetimeMs: 100, listener: l)
        defer { try? vs.end() }
        let st = try l.next("the puzzle") { $0.yourTurn }
        try eq(PuzzleStatus(name: puzzle.name, id: nil, mateIn: 1, movesLeft: 1, goal: "mate in 1 more move",
                            solved: false, hintsUsed: 0,
                            wrongMoves: 0, notice: nil), st.puzzle)
        try eq(10, st.level)
        // A wrong move: answered, then taken back at once, counted, with a notice naming both.
        _ = try vs.playText(text: "e1e2")
        let back = try l.next("taken back") { $0.puzzle?.wrongMoves == 1 }
        try check(back.yourTurn && back.moves.isEmpty && !back.canRedo)
        guard case let .wrongMoveTakenBack(played, reply)? = back.puzzle?.notice else {
            throw TestFailure(description: "no wrong-move notice: \(String(describing: back.puzzle))")
        }
        try eq("e1e2", played.coordinate)
        try check(reply != nil)
        try vs.clearNotice()
        _ = try l.next("cleared") { $0.puzzle?.notice == nil }
        try fails(.notAvailable) { try vs.claimDraw() }
        _ = try vs.playText(text: "R5=6")
        let solved = try l.next("solved") { $0.outcome != nil }
        try check(solved.puzzle?.solved == true)
        try eq("You won: checkmate", solved.result)
        try check(at(solved.board, 3, 0).check || solved.board.cells.contains { $0.check }, "the mated king")
        try fails(.gameOver) { try vs.hint() }
    }

    s.test("vs computer (chess): taps, the promotion picker path, black, a game that goes on") {
        let l = StateInbox()
        let vs = try VsComputer(settings: vsSettings(.chess), listener: l)
        defer { try? vs.end() }
        let first = try l.next("the first state") { $0.yourTurn }
        try eq([8, 8, 64], [Int(first.board.width), Int(first.board.height), first.board.cells.count])
        try eq(GameKind.chess, first.board.kind)
        try eq(32, first.board.cells.filter { $0.dark }.count)
        try check(at(first.board, 0, 7).dark && !at(first.board, 7, 7).dark, "a1 dark, h1 light")
        try eq(["a8", "h1"], [first.board.cells.first!.name, first.board.cells.last!.name])
        try eq("♙", at(first.board, 4, 6).piece?.glyph)
        try eq(TapResult.selected(square: 12), try vs.tap(column: 4, row: 6))
        try eq(2, try vs.state().board.cells.filter { $0.target }.count)
        try eq(TapResult.moved(played: try move(.chess, "e2", "e4")), try vs.tap(column: 4, row: 4))
        let answered = try l.next("the computer's answer") { $0.moves.count == 2 && $0.yourTurn }
        try eq("e4", answered.moves[0])
        try check(answered.lastMove?.by == .black)
        // Against the computer until the end or 40 plies: only that it answers legally.
        var st = answered
        while st.outcome == nil && st.moves.count < 40 {
            _ = try playFirst(vs, st)
            let n = st.moves.count
            st = try l.next("the computer answers at ply \(n + 1)") {
                $0.outcome != nil || ($0.moves.count == n + 2 && $0.yourTurn)
            }
        }
        try check(st.outcome != nil || st.moves.count == 40, "\(st.moves)")

        let lp = StateInbox()
        let promo = try VsComputer(settings: vsSettings(.chess, fen: "8/P6k/8/8/8/8/8/K7 w - - 0 1"), listener: lp)
        defer { try? promo.end() }
        _ = try lp.next("the promotion position") { $0.yourTurn }
        try eq(TapResult.ignored, try promo.choosePromotion(piece: .queen), "nothing to promote yet")
        try eq(TapResult.selected(square: 48), try promo.tap(column: 0, row: 1))
        guard case .choosePromotion(let from, let to, let choices) = try promo.tap(column: 0, row: 0) else {
            throw TestFailure(description: "no promotion choice")
        }
        try eq([48, 56], [from, to])
        try eq(Set([PieceKind.queen, .rook, .bishop, .knight]), Set(choices))
        try eq(PromotionChoice(from: 48, to: 56, choices: choices), try promo.state().board.promotion, "the picker in the state")
        try eq(TapResult.moved(played: Move(from: 48, to: 56, promotion: .knight)),
               try promo.choosePromotion(piece: .knight))
        try eq(nil, try promo.state().board.promotion, "answered")
        let promoted = try lp.next("promoted") { $0.moves.count >= 1 }
        try eq("a8=N", promoted.moves[0])
        try eq(PieceKind.knight, try promo.state().board.cells[0].piece?.kind)
        try eq("♘", try promo.state().board.cells[0].piece?.glyph)

        let lb = StateInbox()
        let black = try VsComputer(settings: vsSettings(.chess, .black), listener: lb)
        defer { try? black.end() }
        let opened = try lb.next("white opens") { $0.yourTurn }
        try eq(1, opened.moves.count)
        try check(opened.board.flipped)
        try eq(["h1", "a8"], [opened.board.cells.first!.name, opened.board.cells.last!.name])
        try fails(.notAvailable) { try black.claimDraw() }
        let saved = try black.save()
        try eq(GameKind.chess, try Game.load(bytes: saved).kind())
    }

    s.test("vs computer: settings refused with the reason") {
        let l = StateInbox()
        for level: UInt8 in [0, 11, 255] {
            try fails(.invalidArgument) { _ = try VsComputer(settings: vsSettings(.chess, level: level), listener: l) }
        }
        for ms: UInt64 in [0, 3_600_001, UInt64.max] {
            try fails(.invalidArgument) { _ = try VsComputer(settings: vsSettings(.xiangqi, movetimeMs: ms), listener: l) }
        }
        try fails(.invalidArgument) {
            _ = try VsComputer(settings: vsSettings(.xiangqi, rules: .chess(autoClaim: false)), listener: l)
        }
        try fails(.invalidArgument) {
            _ = try VsComputer(settings: vsSettings(.xiangqi, rules: .xiangqi(repetition: .asian, repetitions: 1, noCapturePlies: 0)),
                               listener: l)
        }
        try fails(.invalidPosition) { _ = try VsComputer(settings: vsSettings(.chess, fen: "8/8/8 w"), listener: l) }
        try fails(.invalidArgument) { _ = try VsComputer(settings: vsSettings(.lines), listener: l) }
        try fails(.badSave) { _ = try VsComputer.resume(saved: Data("nonsense".utf8), settings: vsSettings(.xiangqi), listener: l) }
        try fails(.invalidPosition) {
            _ = try VsComputer.puzzle(puzzle: Puzzle(name: "bad", kind: .xiangqi, fen: "9/9 w", mateIn: 1), movetimeMs: 10, listener: l)
        }
    }
}
