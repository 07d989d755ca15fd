// The free functions and a local xiangqi Game: every method, the listener, errors with
// readable messages, rules, save/load.
import Foundation

final class RecordingGameListener: GameListener, @unchecked Sendable {
    private let lock = NSLock()
    private var _events: [GameEvent] = []
    var events: [GameEvent] { lock.lock(); defer { lock.unlock() }; return _events }

    func onEvent(event: GameEvent) {
        lock.lock()
        _events.append(event)
        lock.unlock()
    }
}

let xiangqiStart = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
let chessStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

func gameTests(_ s: Suite) {
    s.test("free functions: games, notations, pieces, shapes, rules, names, results") {
        try check(!bancoVersion().isEmpty)
        try eq([GameKind.xiangqi, .chess, .jieqi], boardGames())
        try eq([Notation.chinese, .wxf, .coordinate], notations(kind: .xiangqi))
        try eq([Notation.san, .coordinate], notations(kind: .chess))
        try eq([PieceKind.king, .advisor, .elephant, .horse, .rook, .cannon, .pawn], pieceKinds(kind: .xiangqi))
        try eq([PieceKind.king, .queen, .rook, .bishop, .knight, .pawn], pieceKinds(kind: .chess))
        let xs = try boardShape(kind: .xiangqi)
        try eq(GameKind.xiangqi, xs.kind)
        try eq([9, 10], [xs.width, xs.height])
        try eq(90, xs.squareNames.count)
        try eq(["a0", "i9"], [xs.squareNames.first!, xs.squareNames.last!])
        let cs = try boardShape(kind: .chess)
        try eq([8, 8], [cs.width, cs.height])
        try eq(["a1", "b1", "h8"], [cs.squareNames[0], cs.squareNames[1], cs.squareNames[63]])
        try eq(Rules.xiangqi(repetition: .asian, repetitions: 3, noCapturePlies: 120), defaultRules(kind: .xiangqi))
        try eq(Rules.chess(autoClaim: false), defaultRules(kind: .chess))
        try eq(["Red", "Black", "White", "Black"],
               [colorName(kind: .xiangqi, color: .red), colorName(kind: .xiangqi, color: .black),
                colorName(kind: .chess, color: .red), colorName(kind: .chess, color: .black)])
        let mate = Outcome.win(winner: .black, reason: .checkmate)
        try eq("You won: checkmate", resultText(kind: .chess, outcome: mate, me: .black))
        try eq("You lost: checkmate", resultText(kind: .chess, outcome: mate, me: .red))
        try eq("Black won: checkmate", resultText(kind: .chess, outcome: mate, me: nil))
        try eq("White won: resignation",
               resultText(kind: .chess, outcome: .win(winner: .red, reason: .resignation), me: nil))
        try eq("Red won: resignation",
               resultText(kind: .xiangqi, outcome: .win(winner: .red, reason: .resignation), me: nil))
        try eq("Draw: threefold repetition",
               resultText(kind: .chess, outcome: .draw(reason: .threefoldRepetition), me: .red))
        try eq("Draw: no capture in 120 plies",
               resultText(kind: .xiangqi, outcome: .draw(reason: .noCapture(plies: 120)), me: nil))
        try eq(xiangqiStart, try startFen(kind: .xiangqi))
        try eq(chessStart, try startFen(kind: .chess))
        try eq("h2", try squareName(kind: .xiangqi, index: 25))
        try eq(25, try parseSquare(kind: .xiangqi, name: "h2"))
        try eq("e4", try squareName(kind: .chess, index: 28))
        try eq(28, try parseSquare(kind: .chess, name: " E4 "))
        try check(validateFen(kind: .xiangqi, fen: xiangqiStart).isEmpty)
        try check(validateFen(kind: .chess, fen: chessStart).isEmpty)
        let problems = validateFen(kind: .xiangqi, fen: "3k5/4A4/9/9/9/9/9/9/9/4k4 w")
        try eq(4, problems.count, "problems \(problems)")
        try check(problems.contains("red has no king"), "\(problems)")
        try check(!validateFen(kind: .chess, fen: "8/8/8/8/8/8/8/8 w - - 0 1").isEmpty)
        let puzzles = builtinPuzzles()
        try check(puzzles.count >= 4, "\(puzzles.count) puzzles")
        for p in puzzles {
            try check(p.mateIn >= 1 && !p.name.isEmpty && validateFen(kind: p.kind, fen: p.fen).isEmpty, "\(p)")
        }
    }

    s.test("xiangqi: new game, shape, legal moves, board") {
        let g = try Game(kind: .xiangqi)
        try eq(GameKind.xiangqi, try g.kind())
        try eq(try boardShape(kind: .xiangqi), try g.shape())
        try eq(44, try g.legalMoves().count)
        try eq(32, try g.pieces().count)
        let cannon = try g.pieceAt(square: try square(.xiangqi, "h2"))
        try eq(PieceKind.cannon, cannon?.kind)
        try eq(["炮", "C", "cannon"], [cannon?.glyph, cannon?.letter, cannon?.name])
        try eq("車", try g.pieceAt(square: try square(.xiangqi, "a9"))?.glyph)
        try eq(nil, try g.pieceAt(square: try square(.xiangqi, "e4")))
        let targets = try g.legalMovesFrom(square: try square(.xiangqi, "h2"))
            .map { try squareName(kind: .xiangqi, index: $0.to) }.sorted()
        try eq(["c2", "d2", "e2", "f2", "g2", "h1", "h3", "h4", "h5", "h6", "h9", "i2"], targets)
        try check(try g.isLegal(mv: try move(.xiangqi, "h2", "e2")))
        try check(!(try g.isLegal(mv: try move(.xiangqi, "h2", "h8"))))
        try check(!(try g.isLegal(mv: try move(.xiangqi, "h2", "e2", .queen))), "no promotion in xiangqi")
        let st = try g.status()
        try eq(GameKind.xiangqi, st.kind)
        try eq(Color.red, st.sideToMove)
        try eq("*", st.result)
        try eq("", st.resultText)
        try check(st.outcome == nil && !st.canUndo && !st.canRedo && !st.inCheck && st.claimableDraw == nil)
        try eq(xiangqiStart, try g.fen())
        try eq(xiangqiStart, try g.startFen())
    }

    s.test("xiangqi: play in every notation, history, undo/redo, listener, copy") {
        let g = try Game(kind: .xiangqi)
        let rec = RecordingGameListener()
        try g.setListener(listener: rec)
        let p1 = try g.play(mv: try move(.xiangqi, "h2", "e2"))
        try eq(1, p1.ply)
        try eq(Color.red, p1.by)
        try eq(PieceKind.cannon, p1.piece?.kind)
        try eq("h2e2", p1.coordinate)
        try eq("炮二平五", p1.text)
        try eq("C2.5", text(p1, .wxf))
        try eq("炮二平五", text(p1, .chinese))
        try eq([Notation.chinese, .wxf, .coordinate], p1.texts.map { $0.notation })
        try eq("h9g7", try g.playText(text: "马8进7", notation: .chinese).coordinate)
        try eq("h0g2", try g.playText(text: "H2+3", notation: .wxf).coordinate)
        try eq("i9h9", try g.playText(text: "i9h9", notation: nil).coordinate)
        for m in try g.legalMoves() {
            for n in notations(kind: .xiangqi) {
                try eq(m, try g.parseMove(text: try g.moveText(mv: m, notation: n), notation: n))
            }
        }
        try eq(["C2.5", "H8+7", "H2+3", "R9.8"], try g.historyText(notation: .wxf))
        try eq(["h2e2", "h9g7", "h0g2", "i9h9"], try g.history().map { $0.coordinate })
        try eq(try move(.xiangqi, "i9", "h9"), try g.undo())
        try check(try g.status().canRedo)
        try eq("i9h9", try g.redo()?.coordinate)
        try eq(nil, try g.redo())
        try eq(6, rec.events.count, "\(rec.events)")
        guard case .moveUndone(let undone, let ply) = rec.events[4] else {
            throw TestFailure(description: "not undone: \(rec.events[4])")
        }
        try eq("h9", try squareName(kind: .xiangqi, index: undone.to))
        try eq(3, ply)
        let copy = try g.copy()
        _ = try copy.playText(text: "i0i1", notation: .coordinate)
        try eq(4, try g.status().ply)
        try eq(5, try copy.status().ply)
        try g.setListener(listener: nil)
        _ = try g.undo()
        try eq(6, rec.events.count, "no events without a listener")
    }

    s.test("xiangqi: checkmate, outcome, no moves after the end") {
        let g = try Game.fromFen(kind: .xiangqi, fen: "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1")
        let rec = RecordingGameListener()
        try g.setListener(listener: rec)
        let p = try g.playText(text: "R5=6", notation: .wxf)
        try check(p.givesCheck)
        let st = try g.status()
        try eq("1-0", st.result)
        try eq("1-0 checkmate", st.resultText)
        try eq(Outcome.win(winner: .red, reason: .checkmate), st.outcome)
        try check(st.inCheck)
        try check(try g.legalMoves().isEmpty)
        guard case .gameOver(let o, let text)? = rec.events.last else {
            throw TestFailure(description: "no game over: \(rec.events)")
        }
        try eq(st.outcome, o)
        try eq("1-0 checkmate", text)
        try fails(.gameOver) { _ = try g.playText(text: "d9e9", notation: nil) }
        try fails(.gameOver) { _ = try g.claimDraw() }
    }

    s.test("xiangqi: errors are typed and readable") {
        let g = try Game(kind: .xiangqi)
        try eq("h2h8 is not a legal move here: the cannon's path is blocked by black's cannon on h7 (a cannon jumps only to capture)",
               try fails(.illegalMove) { _ = try g.play(mv: try move(.xiangqi, "h2", "h8")) })
        try check(try fails(.badMoveText) { _ = try g.playText(text: "C2*5", notation: .wxf) }
            .hasPrefix("`C2*5` is not a move: write coordinates (h2e2), WXF"))
        try eq("SAN notation is not used in xiangqi",
               try fails(.badMoveText) { _ = try g.playText(text: "Nf3", notation: .san) })
        try eq("there is no square 90 on a 9x10 board: squares go 0 to 89",
               try fails(.badSquare) { _ = try g.pieceAt(square: 90) })
        try eq("Lines is played with LinesGame",
               try fails(.invalidArgument) { _ = try Game(kind: .lines) })
        try fails(.invalidArgument) { _ = try startFen(kind: .lines) }
        // The free functions answer for Lines or refuse it, naming what to call instead.
        try eq("colorName is for board games, not Lines: a ball's colour is linesColorName(color)",
               try fails(.invalidArgument) { _ = try colorName(kind: .lines, color: .black) })
        try fails(.invalidArgument) { _ = try resultText(kind: .lines, outcome: .win(winner: .red, reason: .checkmate), me: nil) }
        try fails(.invalidArgument) { _ = try squareName(kind: .lines, index: 0) }
        try eq([], notations(kind: .lines))
        try eq([], validateFen(kind: .lines, fen: "9/9/9/9/2RRRR3/9/9/9/8B GBY 40"))
        try eq([], pgnPlayerTags(kind: .lines, first: "An", second: "Binh"))
        try eq("illegal position: the two kings face each other on an open file",
               try fails(.invalidPosition) { _ = try Game.fromFen(kind: .xiangqi, fen: "4k4/9/9/9/9/9/9/9/9/4K4 w") })
        try fails(.badSave) { _ = try Game.load(bytes: Data([1, 2, 3])) }
        // A newer Banco's save is not damage (a shell keeps it and says to update the app).
        var newer = try Game(kind: .xiangqi).save()
        newer[newer.startIndex + 8] = 200
        try check(try fails(.newerSave) { _ = try Game.load(bytes: newer) }.contains("update the app"))
        let lines = try LinesGame(settings: LinesSettings(startBalls: 5, undo: .lastTurn, preview: false), seed: 3).save()
        try fails(.wrongGame) { _ = try Game.load(bytes: lines) }
        try eq("there is no draw to claim in this position", try fails(.notAvailable) { _ = try g.claimDraw() })
        try fails(.invalidArgument) { try g.setRules(rules: .chess(autoClaim: true)) }
        try fails(.invalidArgument) { _ = try parseSquare(kind: .xiangqi, name: "j1") }
        try fails(.badSquare) { _ = try squareName(kind: .chess, index: 64) }
    }

    s.test("xiangqi: rules, save and load round trip, restore") {
        let g = try Game(kind: .xiangqi)
        let rules = Rules.xiangqi(repetition: .casual, repetitions: 3, noCapturePlies: 60)
        try g.setRules(rules: rules)
        try eq(rules, try g.rules())
        for m in ["h2e2", "h9g7", "h0g2", "i9h9"] { _ = try g.playText(text: m, notation: .coordinate) }
        _ = try g.undo()
        let bytes = try g.save()
        let back = try Game.load(bytes: bytes)
        try eq(try g.fen(), try back.fen())
        try eq(try g.history(), try back.history())
        try eq(rules, try back.rules())
        try check(try back.status().canRedo, "the redo list is saved")
        try eq("i9h9", try back.redo()?.coordinate)
        let other = try Game(kind: .chess)
        let rec = RecordingGameListener()
        try other.setListener(listener: rec)
        try other.restore(bytes: bytes)
        try eq(GameKind.xiangqi, try other.kind())
        try eq(try g.startFen(), try other.startFen())
        try eq(try g.fen(), try other.fen())
        try eq([GameEvent.reset(fen: try g.fen())], rec.events)
    }

    s.test("what a shell asks Rust instead of writing it: levels, presets, Lines size, tags, notices") {
        try eq(LevelRange(min: 1, max: 10), levelRange())
        try eq(["asian", "casual"], rulesPresets(kind: .xiangqi).map { $0.name })
        try eq(rulesPresets(kind: .xiangqi).map { $0.label }, rulesPresets(kind: .jieqi).map { $0.label })
        try eq([], rulesPresets(kind: .chess))
        try eq(Rules.jieqi(repetition: .casual, repetitions: 3, noCapturePlies: 120),
               rulesPreset(kind: .jieqi, name: "Casual"))
        try eq(nil, rulesPreset(kind: .chess, name: "casual"))
        try eq(LinesBoardSize(side: 9, cells: 81), linesBoardSize())
        try eq([PgnTag(name: "White", value: "An"), PgnTag(name: "Black", value: "Binh")],
               pgnPlayerTags(kind: .chess, first: "An", second: "Binh"))
        try eq("Red", pgnPlayerTags(kind: .jieqi, first: "An", second: "Binh").first?.name)
        try eq("Solved! Clean.", puzzleNoticeText(notice: .solved(hintsUsed: 0, wrongMoves: 0)))
        try eq("Solved! (1 hint, 2 wrong moves)", puzzleNoticeText(notice: .solved(hintsUsed: 1, wrongMoves: 2)))
    }

    s.test("legalMoves() call overhead (logged)") {
        let g = try Game(kind: .xiangqi)
        for _ in 0..<2000 { _ = try g.legalMoves() }
        let n = 20000
        let start = Date()
        var total = 0
        for _ in 0..<n { total += try g.legalMoves().count }
        let perCall = Date().timeIntervalSince(start) / Double(n) * 1e9
        try eq(44 * n, total)
        print("  legalMoves(): \(Int(perCall)) ns per call (44 moves)")
    }
}
