// Game: every method, the listener, errors with readable messages, save/load, garbage.
import Foundation

func sq(_ file: UInt8, _ rank: UInt8) -> Square { Square(file: file, rank: rank) }

func mv(_ from: String, _ to: String) throws -> Move {
    Move(from: try parseSquare(name: from), to: try parseSquare(name: to))
}

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

let garbageStrings: [String] = [
    "", " ", "\u{0}", "h2", "h2e2e2", "z9z9", "C2=", "C2=0", "C0=5", "C2=99", "+-=", "13=2",
    "炮", "炮二平", "炮十平五", "前前炮平五", "🐉🐉🐉🐉", "h2\u{301}e2", "\u{feff}h2e2", "9/9/9",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
    "kkkkkkkkk/9/9/9/9/9/9/9/9/KKKKKKKKK w - - -1 0",
    String(repeating: "x", count: 100_000), String(repeating: "/", count: 1000),
]

let garbageSquares: [Square] = [sq(0, 0), sq(8, 9), sq(9, 0), sq(0, 10), sq(255, 255), sq(4, 200)]

/// A BancoError other than Internal is fine; an Internal one (a panic) fails.
func tolerate(_ what: String, _ body: () throws -> Void) throws {
    do { try body() } catch let e as BancoError {
        try check(!isInternal(e) && !message(e).isEmpty, "\(what): \(e)")
    }
}

func gameTests(_ s: Suite) {
    s.test("free functions") {
        try check(!bancoVersion().isEmpty)
        try eq("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
               try startFen(kind: .xiangqi))
        try eq("h2", try squareName(square: sq(7, 2)))
        try eq(sq(7, 2), try parseSquare(name: "h2"))
        try eq(Rules(repetition: .asian, repetitions: 3, noCapturePlies: 120), defaultRules())
        try check(validateFen(fen: try startFen(kind: .xiangqi)).isEmpty)
        let problems = validateFen(fen: "3k5/4A4/9/9/9/9/9/9/9/4k4 w")
        try eq(4, problems.count, "problems \(problems)")
        try check(problems.contains("red has no king"), "\(problems)")
    }

    s.test("new game, legal moves, board") {
        let g = try Game(kind: .xiangqi)
        try eq(GameKind.xiangqi, try g.kind())
        try eq(44, try g.legalMoves().count)
        try eq(32, try g.pieces().count)
        let cannon = try g.pieceAt(square: sq(7, 2))
        try eq(PieceKind.cannon, cannon?.kind)
        try eq("炮", cannon?.glyph)
        try eq(nil, try g.pieceAt(square: sq(4, 4)))
        let targets = try g.legalMovesFrom(square: sq(7, 2)).map { try squareName(square: $0.to) }.sorted()
        try eq(["c2", "d2", "e2", "f2", "g2", "h1", "h3", "h4", "h5", "h6", "h9", "i2"], targets)
        try check(try g.isLegal(mv: try mv("h2", "e2")))
        try check(!(try g.isLegal(mv: try mv("h2", "h8"))))
        let st = try g.status()
        try eq(Color.red, st.sideToMove)
        try eq("*", st.result)
        try check(st.outcome == nil && !st.canUndo && !st.canRedo)
    }

    s.test("play in every notation, history, undo/redo, listener") {
        let g = try Game(kind: .xiangqi)
        let rec = RecordingGameListener()
        try g.setListener(listener: rec)
        let p1 = try g.play(mv: try mv("h2", "e2"))
        try eq("C2=5", p1.wxf)
        try eq("炮二平五", p1.chinese)
        try eq("h9g7", try g.playText(text: "马8进7", notation: .chinese).coordinate)
        try eq("h0g2", try g.playText(text: "H2+3", notation: .wxf).coordinate)
        for m in try g.legalMoves() {
            for n in [Notation.coordinate, .wxf, .chinese] {
                try eq(m, try g.parseMove(text: try g.moveText(mv: m, notation: n), notation: n))
            }
        }
        try eq(["C2=5", "H8+7", "H2+3"], try g.historyText(notation: .wxf))
        try eq(try mv("h0", "g2"), try g.undo())
        try check(try g.status().canRedo)
        try eq("h0g2", try g.redo()?.coordinate)
        try eq(nil, try g.redo())
        try eq(5, rec.events.count, "\(rec.events)")
        guard case .moveUndone(_, let ply) = rec.events[3] else { throw TestFailure(description: "not undone") }
        try eq(2, ply)
        let copy = try g.copy()
        _ = try copy.playText(text: "i9h9", notation: .coordinate)
        try eq(3, try g.status().ply)
        try eq(4, try copy.status().ply)
    }

    s.test("checkmate and outcome") {
        let g = try Game.fromFen(fen: "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1")
        let rec = RecordingGameListener()
        try g.setListener(listener: rec)
        try check(try g.playText(text: "R5=6", notation: .wxf).givesCheck)
        let st = try g.status()
        try eq("1-0 checkmate", st.resultText)
        try eq(Outcome.win(winner: .red, reason: .checkmate), st.outcome)
        guard case .gameOver(_, let text)? = rec.events.last else { throw TestFailure(description: "no game over") }
        try eq("1-0 checkmate", text)
    }

    s.test("errors are typed and readable") {
        let g = try Game(kind: .xiangqi)
        let e1 = try throwsBanco { _ = try g.play(mv: try mv("h2", "h8")) }
        guard case .IllegalMove(let m1) = e1 else { throw TestFailure(description: "\(e1)") }
        try eq("h2h8 is not a legal move here: a cannon cannot move like that", m1)
        let e2 = try throwsBanco { _ = try g.playText(text: "C2*5", notation: .wxf) }
        try check(message(e2).hasPrefix("`C2*5` is not a WXF move"), message(e2))
        let e3 = try throwsBanco { _ = try g.pieceAt(square: sq(9, 0)) }
        try eq("there is no square at file 9, rank 0: files go 0-8 (a-i) and ranks 0-9", message(e3))
        let e4 = try throwsBanco { _ = try Game(kind: .chess) }
        try eq("chess is not available in this version of Banco", message(e4))
        let e5 = try throwsBanco { _ = try Game.fromFen(fen: "4k4/9/9/9/9/9/9/9/9/4K4 w") }
        try eq("illegal position: the two kings face each other on an open file", message(e5))
        let e6 = try throwsBanco { _ = try Game.load(bytes: Data([1, 2, 3])) }
        try eq("this saved game cannot be loaded: it is empty or cut short", message(e6))
    }

    s.test("rules, save and load round trip") {
        let g = try Game(kind: .xiangqi)
        let rules = Rules(repetition: .casual, repetitions: 3, noCapturePlies: 60)
        try g.setRules(rules: rules)
        for m in ["h2e2", "h9g7", "h0g2", "i9h9"] { _ = try g.playText(text: m, notation: .coordinate) }
        let bytes = try g.save()
        try eq("BNCO", String(decoding: bytes.prefix(4), as: UTF8.self))
        let back = try Game.load(bytes: bytes)
        try eq(try g.fen(), try back.fen())
        try eq(try g.history(), try back.history())
        try eq(rules, try back.rules())
        let other = try Game(kind: .xiangqi)
        try other.restore(bytes: bytes)
        try eq(try g.startFen(), try other.startFen())
        try eq(try g.fen(), try other.fen())
    }

    s.test("garbage to every Game entry point") {
        let g = try Game(kind: .xiangqi)
        for k in [GameKind.xiangqi, .jieqi, .chess, .lines] {
            try tolerate("new") { _ = try Game(kind: k) }
            try tolerate("startFen") { _ = try startFen(kind: k) }
        }
        for t in garbageStrings {
            try tolerate("fromFen") { _ = try Game.fromFen(fen: t) }
            _ = validateFen(fen: t)
            try tolerate("parseSquare") { _ = try parseSquare(name: t) }
            for n in [Notation.coordinate, .wxf, .chinese] {
                try throwsBanco { _ = try g.playText(text: t, notation: n) }
                try throwsBanco { _ = try g.parseMove(text: t, notation: n) }
            }
        }
        for a in garbageSquares {
            try tolerate("squareName") { _ = try squareName(square: a) }
            try tolerate("pieceAt") { _ = try g.pieceAt(square: a) }
            try tolerate("legalMovesFrom") { _ = try g.legalMovesFrom(square: a) }
            for b in garbageSquares {
                let m = Move(from: a, to: b)
                try tolerate("isLegal") { _ = try g.isLegal(mv: m) }
                try throwsBanco { _ = try g.play(mv: m) }
                for n in [Notation.coordinate, .wxf, .chinese] {
                    try throwsBanco { _ = try g.moveText(mv: m, notation: n) }
                }
            }
        }
        let good = try g.save()
        var bad: [Data] = [Data(), Data([0, 0, 0]), Data("BNCO".utf8), Data(repeating: 0xff, count: 64)]
        for i in 0..<good.count {
            var b = good
            b[b.startIndex + i] ^= 0x5a
            bad.append(b)
        }
        bad.append(good.dropLast())
        bad.append(good + Data([0]))
        // A flipped byte may still give a valid record: each load must only end without a panic.
        for b in bad {
            try tolerate("load") { _ = try Game.load(bytes: b) }
        }
        for b in bad.prefix(4) {
            try throwsBanco { _ = try Game.load(bytes: b) }
            try throwsBanco { try g.restore(bytes: b) }
        }
        for r: UInt8 in [0, 1, 10, 255] {
            try throwsBanco { try g.setRules(rules: Rules(repetition: .asian, repetitions: r, noCapturePlies: 65535)) }
        }
        for _ in 0..<3 {
            try eq(nil, try g.undo())
            try eq(nil, try g.redo())
        }
        try eq(try startFen(kind: .xiangqi), try g.fen())
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
