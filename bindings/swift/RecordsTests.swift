// Issue 18 through the boundary: PGN out and in (the first bad move named by number), the
// position editor (brush taps, problems, flip, solve, play from here), the puzzle collection
// (tiers, a puzzle solved with its hint, progress saved and loaded), pictures (SVG pieces in
// place, PNG bytes of the right size).
import Foundation

/// Width and height from a PNG's header.
func pngSize(_ data: Data) throws -> (Int, Int) {
    let b = [UInt8](data)
    try check(b.count > 24 && b[0] == 0x89 && b[1] == 0x50 && b[2] == 0x4E && b[3] == 0x47, "PNG magic")
    func word(_ at: Int) -> Int { (0..<4).reduce(0) { ($0 << 8) | Int(b[at + $1]) } }
    return (word(16), word(20))
}

func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

func recordsTests(_ s: Suite) {
    s.test("records: PGN out and back in") {
        let g = try Game(kind: .xiangqi)
        _ = try g.playText(text: "C2=5", notation: .wxf)
        _ = try g.playText(text: "h9g7", notation: nil)
        let pgn = try g.toPgn(tags: [PgnTag(name: "Red", value: "Alice")])
        try check(pgn.contains("[Red \"Alice\"]"), pgn)
        let back = try Game.fromPgn(text: pgn)
        try eq(try g.fen(), try back.fen())
        let chess = try Game(kind: .chess)
        _ = try chess.playText(text: "e4", notation: nil)
        try check(try chess.toPgn(tags: []).contains("1. e4 *"))
        try check(try pgnOfSaved(bytes: try chess.save()).contains("1. e4 *"))
    }

    s.test("records: a bad PGN names its first bad move by number") {
        do {
            _ = try Game.fromPgn(text: "1. e4 e5 2. Ke3 Nc6 *")
            throw TestFailure(description: "an illegal move was accepted")
        } catch let e as PgnImportError {
            guard case .IllegalMove(let number, let side, let text, _) = e else { throw e }
            try check(bancoMessage(e).contains("Ke3"), "a readable message: \(bancoMessage(e))")
            try eq(2, number)
            try eq("White", side)
            try eq("Ke3", text)
        }
        do {
            _ = try Game.fromPgn(text: "")
            throw TestFailure(description: "an empty PGN was accepted")
        } catch PgnImportError.Empty {}
    }

    s.test("records: a jieqi position with face-down pieces in the editor") {
        try check(editorGames().contains(.jieqi), "jieqi is set up in the editor")
        let ed = try Editor.empty(kind: .jieqi)
        let down = try ed.view().palette.filter { $0.faceDown }
        try eq([Color.red, .black], down.map { $0.color })
        try ed.place(square: try square(.xiangqi, "e0"), color: .red, kind: .king)
        try ed.place(square: try square(.xiangqi, "d9"), color: .black, kind: .king)
        try eq(EditorTap.placed(square: 0),
               try ed.tap(column: 0, row: 9, brushColor: down[0].color, brushKind: down[0].kind, brushFaceDown: down[0].faceDown))
        try ed.place(square: try square(.xiangqi, "b7"), color: down[1].color, kind: down[1].kind, faceDown: down[1].faceDown)
        try eq([], try ed.problems())
        try eq("3k5/9/1x7/9/9/9/9/9/9/X3K4 w R2A2C2P5N2B2r2a2c2p5n2b2 0 1", try ed.fen())
        try ed.setCaptured(color: .black, kind: .rook, count: 1)
        try eq([15, 14], try ed.view().pools.map { $0.total })
        try fails(.unsupported) { _ = try ed.solve(maxMate: 3) }
        try eq(try ed.fen(), try ed.toGame().fen())
    }

    s.test("records: the editor, solve and play from here") {
        let ed = try Editor.empty(kind: .xiangqi)
        try eq(14, try ed.view().palette.count)
        try eq(EditorTap.placed(square: try square(.xiangqi, "e0")),
               try ed.tap(column: 4, row: 9, brushColor: .red, brushKind: .king))
        try ed.place(square: try square(.xiangqi, "d9"), color: .black, kind: .king)
        try ed.place(square: try square(.xiangqi, "e1"), color: .red, kind: .rook)
        try eq([], try ed.problems())
        try ed.place(square: try square(.xiangqi, "a0"), color: .red, kind: .advisor)
        let bad = try ed.view()
        try check(bad.problems.contains { $0.square == (try? square(.xiangqi, "a0")) }, "\(bad.problems)")
        try fails(.invalidPosition) { _ = try ed.toGame() }
        _ = try ed.remove(square: try square(.xiangqi, "a0"))
        try eq("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", try ed.fen())
        let solution = try ed.solve(maxMate: 3)
        try eq(1, solution.mate)
        try eq(["e1d1"], solution.line)
        try fails(.invalidArgument) { _ = try ed.solve(maxMate: 0) }
        // Stopping with no solve running does nothing: the next one runs whole.
        try ed.stopSolve()
        try eq(1, try ed.solve(maxMate: 3).mate)
        try ed.flip()
        try check(try ed.view().flipped)
        let l = StateInbox()
        let vs = try ed.playVsComputer(human: .red, level: 1, movetimeMs: 50, listener: l)
        defer { try? vs.end() }
        _ = try l.next("the player's turn") { $0.yourTurn }
        _ = try vs.playText(text: "e1d1")
        try eq("You won: checkmate", try l.next("mate") { $0.outcome != nil }.result)
        // Lines is played with LinesGame: refused as every board-game call refuses it.
        try fails(.invalidArgument) { _ = try Editor.empty(kind: .lines) }
        // The en-passant square of a pawn that just made its double step.
        let ep = try Editor.fromFen(kind: .chess, fen: "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
        try ep.setEnPassant(square: try square(.chess, "d6"))
        let withSquare = try ep.fen()
        try check(withSquare.contains(" KQkq d6 "), withSquare)
        try ep.setEnPassant(square: nil)
        let without = try ep.fen()
        try check(without.contains(" KQkq - "), without)
        try fails(.invalidArgument) { try ep.setEnPassant(square: 200) }
    }

    s.test("records: the puzzle collection, puzzle mode and progress") {
        let tiers = puzzleTiers()
        try eq(PuzzleTier.mateIn1, tiers[0].tier)
        try check(tiers.reduce(0) { $0 + Int($1.count) } >= 200)
        let ones = collectionPuzzles(tier: .mateIn1)
        try eq(Int(tiers[0].count), ones.count)
        let p = ones[0]
        try eq(p, collectionPuzzle(id: p.id))
        // The record in the shell's store, written by the try itself.
        let store = MemoryPuzzleStore()
        let progress = PuzzleProgress.open(store: store)
        try eq(nil, progress.takeNotice())
        let l = StateInbox()
        try fails(.invalidArgument) { _ = try VsComputer.tryPuzzle(id: "no such id", progress: progress, movetimeMs: 100, listener: l) }
        try check(store.bytes == nil, "a refused try records nothing")
        let vs = try VsComputer.tryPuzzle(id: p.id, progress: progress, movetimeMs: 100, listener: l)
        defer { try? vs.end() }
        try eq(p.id, try l.next("the puzzle") { $0.yourTurn }.puzzle?.id)
        try eq(PuzzleRecord(solved: false, attempts: 1, hints: 0), try progress.record(id: p.id))
        try vs.hint()
        let hinted = try l.next("a hint") { $0.hint != nil }
        try eq(p.solution[0], hinted.hint!.coordinate)
        try eq(1, hinted.puzzle?.hintsUsed)
        try vs.hint() // the same position: counted once
        _ = try l.next("the second hint") { $0.hint != nil && !$0.hinting }
        try fails(.notAvailable) { try vs.resign() }
        _ = try vs.playText(text: p.solution[0])
        let mated = try l.next("mated") { $0.outcome != nil }
        try check(mated.puzzle!.solved)
        try eq(PuzzleNotice.solved(hintsUsed: 1, wrongMoves: 0), mated.puzzle?.notice)
        try vs.clearNotice()
        try eq(nil, try vs.state().puzzle?.notice)
        let back = try PuzzleProgress.load(bytes: try progress.save())
        try eq(PuzzleRecord(solved: true, attempts: 1, hints: 1), try back.record(id: p.id))
        try eq(PuzzleRecord(solved: true, attempts: 1, hints: 1), try PuzzleProgress.open(store: store).record(id: p.id))
        try eq(1, try back.tiers()[0].solved)
        // The same by game: xiangqi's as above; chess has its own collection; jieqi none.
        try eq(try back.tiers(), try back.tiersOf(kind: .xiangqi))
        try eq(try back.nextUnsolved(), try back.nextUnsolvedOf(kind: .xiangqi))
        try eq(puzzleTiers(), puzzleTiersOf(kind: .xiangqi))
        let chessTiers = puzzleTiersOf(kind: .chess)
        try check(!chessTiers.isEmpty, "chess has puzzles")
        try eq(chessTiers.reduce(0) { $0 + Int($1.count) }, collectionPuzzlesOf(kind: .chess, tier: nil).count)
        try eq(GameKind.chess, try back.nextUnsolvedOf(kind: .chess)?.puzzle.kind)
        try eq(chessTiers.count, try back.tiersOf(kind: .chess).count)
        try eq([], puzzleTiersOf(kind: .jieqi))
        try eq(nil, try back.nextUnsolvedOf(kind: .jieqi))
        // A damaged record starts afresh and says so, once.
        store.bytes = Data([1, 2, 3])
        let fresh = PuzzleProgress.open(store: store)
        guard case .recordDamaged? = fresh.takeNotice() else { throw TestFailure(description: "no damage notice") }
        try eq(nil, fresh.takeNotice())
        try check(!(try fresh.isSolved(id: p.id)))
        try fails(.badSave) { _ = try PuzzleProgress.load(bytes: Data([9, 9])) }
    }

    s.test("records: pictures") {
        let svg = try renderFenSvg(kind: .xiangqi, fen: try startFen(kind: .xiangqi), lastMove: "h2e2", flipped: false)
        try eq(32, count("class=\"piece ", in: svg))
        try check(svg.contains("data-square=\"e0\" transform=\"translate(304 604)\""))
        let lines = try renderFenSvg(kind: .lines, fen: "9/9/9/9/2RRRR3/9/9/9/8B GBY 40", lastMove: nil, flipped: false)
        try eq(5, count("class=\"ball ", in: lines))
        let png = try renderPng(svg: svg, scale: 1)
        let (w, h) = try pngSize(png)
        try eq(608, w)
        try eq(668, h)
        try check(png.count > 5000, "a real picture: \(png.count) bytes")
        try fails(.invalidArgument) { _ = try renderPng(svg: svg, scale: 0) }
    }
}

/// The shell's store of the puzzle record, in memory.
final class MemoryPuzzleStore: PuzzleStore, @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    var bytes: Data? {
        get { lock.lock(); defer { lock.unlock() }; return data }
        set { lock.lock(); data = newValue; lock.unlock() }
    }
    func load() -> Data? { bytes }
    func save(bytes: Data) { self.bytes = bytes }
}
