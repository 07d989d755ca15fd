// Nonsense to every entry point: each call either succeeds or throws the BancoError variant
// it documents, with a message; none may come back as Internal (a caught Rust panic).
import Foundation

let allKinds: [GameKind] = [.xiangqi, .jieqi, .chess, .lines]
let allNotations: [Notation?] = [nil, .coordinate, .wxf, .chinese, .san]

let garbageStrings: [String] = [
    " ", "\u{0}", "h2", "h2e2e2", "z9z9", "C2=", "C2=0", "C0=5", "C2=99", "+-=", "13=2",
    "炮", "炮二平", "炮十平五", "前前炮平五", "🐉🐉🐉🐉", "h2\u{301}e2", "\u{feff}h2e2", "9/9/9",
    "e9", "Nf9", "O-O-O-O", "e7e8k", "e2e4e6", "Qxx4", "0-0-0-0",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
    "kkkkkkkkk/9/9/9/9/9/9/9/9/KKKKKKKKK w - - -1 0",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999 1",
    "8/8/8/8/8/8/8/8 w - - 0 1", "kkkkkkkk/8/8/8/8/8/8/KKKKKKKK w - - 0 1",
    String(repeating: "x", count: 100_000), String(repeating: "/", count: 1000),
    String(repeating: "1", count: 500),
]

let garbageSquares: [UInt8] = [0, 63, 64, 89, 90, 99, 200, 255]

let allOutcomes: [Outcome] =
    [WinReason.checkmate, .stalemate, .perpetualCheck, .perpetualChase, .resignation, .timeout, .forfeit, .unknown]
        .flatMap { r in [Outcome.win(winner: .red, reason: r), .win(winner: .black, reason: r)] }
    + [DrawReason.repetition, .noCapture(plies: 0), .noCapture(plies: 65535), .insufficientMaterial, .agreement,
       .stalemate, .fiftyMoveRule, .seventyFiveMoveRule, .threefoldRepetition, .fivefoldRepetition]
        .map { Outcome.draw(reason: $0) }

func garbageMoves() -> [Move] {
    garbageSquares.flatMap { a in
        garbageSquares.flatMap { b in
            [nil, PieceKind.queen, .cannon, .king].map { Move(from: a, to: b, promotion: $0) }
        }
    }
}

/// Saved-game bytes broken in every way, the first `structural` of them surely refused.
func garbageBytes(_ good: Data) -> (all: [Data], structural: Int) {
    var bad: [Data] = [Data(), Data([0, 0, 0]), Data("BNCO".utf8), Data([0x89]) + Data("BANCO\r\n".utf8),
                       Data(repeating: 0xff, count: 64), good.prefix(good.count / 2)]
    let structural = bad.count
    for i in 0..<good.count {
        var b = good
        b[b.startIndex + i] ^= 0x5a
        bad.append(b)
    }
    bad.append(good + Data([0]))
    return (bad, structural)
}

final class NullVsListener: VsListener, @unchecked Sendable { func onState(state: VsState) {} }
final class NullMatchListener: MatchListener, @unchecked Sendable { func onEvent(event: MatchEvent) {} }

func garbageTests(_ s: Suite) {
    s.test("garbage to the free functions") {
        for k in allKinds {
            _ = notations(kind: k)
            _ = pieceKinds(kind: k)
            _ = defaultRules(kind: k)
            let playable = boardGames().contains(k)
            // Lines: refused by the functions only a board game answers (InvalidArgument).
            for c in [Color.red, .black] {
                if playable { try check(!colorName(kind: k, color: c).isEmpty) }
                else { try fails(.invalidArgument) { _ = try colorName(kind: k, color: c) } }
            }
            for o in allOutcomes {
                for me in [nil, Color.red, .black] {
                    if playable { try check(!resultText(kind: k, outcome: o, me: me).isEmpty) }
                    else { try fails(.invalidArgument) { _ = try resultText(kind: k, outcome: o, me: me) } }
                }
            }
            if playable {
                _ = try startFen(kind: k)
                _ = try boardShape(kind: k)
            } else {
                try fails(.invalidArgument) { _ = try startFen(kind: k) }
                try fails(.invalidArgument) { _ = try boardShape(kind: k) }
            }
            for t in garbageStrings {
                try check(!validateFen(kind: k, fen: t).isEmpty, "\(k) \(t.prefix(40))")
                if playable {
                    // A few strings are square names ("h2", "e9"): then the name comes back.
                    try mayFail(.invalidArgument) {
                        let i = try parseSquare(kind: k, name: t)
                        try eq(t, try squareName(kind: k, index: i))
                    }
                } else {
                    try fails(.invalidArgument) { _ = try parseSquare(kind: k, name: t) }
                }
            }
            for i in garbageSquares {
                let size = k == .chess ? 64 : 90
                if !playable {
                    try fails(.invalidArgument) { _ = try squareName(kind: k, index: i) }
                } else if Int(i) < size {
                    try eq(i, try parseSquare(kind: k, name: try squareName(kind: k, index: i)))
                } else {
                    try fails(.badSquare) { _ = try squareName(kind: k, index: i) }
                }
            }
        }
    }

    s.test("garbage to every Game entry point, both games") {
        for k in allKinds where !boardGames().contains(k) {
            try fails(.invalidArgument) { _ = try Game(kind: k) }
            try fails(.invalidArgument, .invalidPosition) { _ = try Game.fromFen(kind: k, fen: "x") }
        }
        for k in boardGames() {
            let g = try Game(kind: k)
            let size = k == .chess ? 64 : 90
            for t in garbageStrings {
                try fails(.invalidPosition) { _ = try Game.fromFen(kind: k, fen: t) }
                for n in allNotations {
                    try fails(.badMoveText, .illegalMove) { _ = try g.playText(text: t, notation: n) }
                    try fails(.badMoveText, .illegalMove) { _ = try g.parseMove(text: t, notation: n) }
                }
            }
            for a in garbageSquares {
                if Int(a) < size {
                    _ = try g.pieceAt(square: a)
                    _ = try g.legalMovesFrom(square: a)
                } else {
                    try fails(.badSquare) { _ = try g.pieceAt(square: a) }
                    try fails(.badSquare) { _ = try g.legalMovesFrom(square: a) }
                }
            }
            for m in garbageMoves() {
                try check(!(try g.isLegal(mv: m)), "\(m) is not legal")
                try fails(.illegalMove, .badSquare) { _ = try g.play(mv: m) }
                for n in allNotations.compactMap({ $0 }) {
                    try fails(.illegalMove, .badSquare) { _ = try g.moveText(mv: m, notation: n) }
                }
            }
            let (bytes, structural) = garbageBytes(try g.save())
            for (i, b) in bytes.enumerated() {
                if i < structural {
                    try fails(.badSave) { _ = try Game.load(bytes: b) }
                    try fails(.badSave) { try g.restore(bytes: b) }
                } else {
                    // A flipped byte may still make a valid record (another legal move, a flag).
                    try mayFail(.badSave, .newerSave) { _ = try Game.load(bytes: b) }
                }
            }
            for r: UInt8 in [0, 1, 10, 255] {
                try fails(.invalidArgument) {
                    try g.setRules(rules: .xiangqi(repetition: .asian, repetitions: r, noCapturePlies: 65535))
                }
            }
            try fails(.invalidArgument) { try g.setRules(rules: k == .chess ? defaultRules(kind: .xiangqi)! : .chess(autoClaim: true)) }
            try fails(.notAvailable) { _ = try g.claimDraw() }
            for _ in 0..<3 {
                try eq(nil, try g.undo())
                try eq(nil, try g.redo())
            }
            // The game is untouched by all of that.
            try eq(try startFen(kind: k), try g.fen())
            try eq(0, try g.status().ply)
            try eq(defaultRules(kind: k), try g.rules())
        }
    }

    s.test("garbage to every VsComputer entry point") {
        let l = NullVsListener()
        for k in boardGames() {
            let vs = try VsComputer(settings: vsSettings(k, level: 1), listener: l)
            defer { try? vs.end() }
            for (c, r): (UInt8, UInt8) in [(255, 255), (9, 0), (0, 10), (200, 3), (4, 4)] {
                let t = try vs.tap(column: c, row: r)
                try check(t == .ignored || t == .cleared, "\(t)")
            }
            for p in [PieceKind.queen, .cannon, .king] { try eq(TapResult.ignored, try vs.choosePromotion(piece: p)) }
            for t in garbageStrings { try fails(.badMoveText, .illegalMove) { _ = try vs.playText(text: t) } }
            for m in garbageMoves() { try fails(.illegalMove, .badSquare) { _ = try vs.play(mv: m) } }
            for a in garbageSquares where a >= 90 { try fails(.badSquare) { _ = try vs.legalMovesFrom(square: a) } }
            for b in garbageBytes(try vs.save()).all.prefix(6) {
                try fails(.badSave) { _ = try VsComputer.resume(saved: b, settings: vsSettings(k), listener: l) }
            }
            try fails(.notAvailable) { try vs.undo() }
            try fails(.notAvailable) { try vs.redo() }
            try eq(0, try vs.state().moves.count)
        }
        for t in garbageStrings {
            for k in allKinds {
                try fails(k == .lines ? .invalidArgument : .invalidPosition) {
                    _ = try VsComputer.puzzle(puzzle: Puzzle(name: t, kind: k, fen: t, mateIn: 0), movetimeMs: 10, listener: l)
                }
                try fails(k == .lines ? .invalidArgument : .invalidPosition) { _ = try VsComputer(settings: vsSettings(k, fen: t), listener: l) }
            }
        }
        let progress = PuzzleProgress()
        for t in garbageStrings {
            try fails(.invalidArgument) { _ = try VsComputer.tryPuzzle(id: t, progress: progress, movetimeMs: 10, listener: l) }
            try eq(PuzzleRecord(solved: false, attempts: 0, hints: 0), try progress.record(id: t))
        }
    }

    s.test("garbage to every Engine, Match and Lobby entry point") {
        for mib: UInt32 in [0, 257, 1025, UInt32.max] { try fails(.invalidArgument) { _ = try Engine(hashMib: mib) } }
        let engine = try Engine(hashMib: 1)
        let listener = SwiftEngineListener()
        for k in boardGames() {
            let g = try Game(kind: k)
            for level: UInt8 in [0, 11, 255] {
                try fails(.invalidArgument) { _ = try engine.bestMove(game: g, level: level, listener: listener) }
                try fails(.invalidArgument) { _ = try engine.think(game: g, level: level, movetimeMs: 10) }
            }
            for ms: UInt64 in [0, 3_600_001, UInt64.max] {
                try fails(.invalidArgument) { _ = try engine.bestMoveTimed(game: g, movetimeMs: ms, listener: listener) }
                try fails(.invalidArgument) { _ = try engine.hint(game: g, movetimeMs: ms, listener: listener) }
                try fails(.invalidArgument) { _ = try engine.think(game: g, level: 5, movetimeMs: ms) }
                try fails(.invalidArgument) { _ = try engine.solvePuzzle(game: g, maxMoves: 3, timeLimitMs: ms, listener: listener) }
            }
            for threads: UInt32 in [0, 65, UInt32.max] {
                try fails(.invalidArgument) { try engine.setThreads(threads: threads) }
            }
            for moves: UInt32 in [0, 61, UInt32.max] {
                try fails(.invalidArgument) { _ = try engine.solvePuzzle(game: g, maxMoves: moves, timeLimitMs: 10, listener: listener) }
            }
        }
        try engine.stop()
        try check(!(try engine.isSearching()))

        let l = NullMatchListener()
        let chess = MatchOffer(game: .chess, yourColor: .red, rules: nil, startFen: nil)
        for addr in garbageStrings + ["", "999.1.1.1:1", "127.0.0.1:99999", "[::1", "0.0.0.0", "localhost:0"] {
            try fails(.invalidArgument) {
                _ = try Match.host(playerName: "An", listenAddress: addr, advertise: false, offers: [], proposal: chess, listener: l)
            }
        }
        for addr in garbageStrings {
            try mayFail(.network, .invalidArgument) { try Match.join(playerName: "An", address: addr, listener: l).leave() }
        }
        for name in ["", "   "] {
            try fails(.invalidArgument) { _ = try Match.join(playerName: name, address: "127.0.0.1:1", listener: l) }
            try fails(.invalidArgument) {
                _ = try Match.host(playerName: name, listenAddress: "127.0.0.1:0", advertise: false, offers: [], proposal: nil, listener: l)
            }
        }
        // A long name is cut as every peer's is, not refused (22 Chinese characters are 66 bytes).
        try Match.host(playerName: String(repeating: "漢", count: 22), listenAddress: "127.0.0.1:0", advertise: false,
                       offers: [], proposal: nil, listener: l).leave()
        let badOffers = [
            MatchOffer(game: .chess, yourColor: .red, rules: defaultRules(kind: .xiangqi), startFen: nil),
            MatchOffer(game: .xiangqi, yourColor: .red, rules: .xiangqi(repetition: .asian, repetitions: 5, noCapturePlies: 7), startFen: nil),
            MatchOffer(game: .xiangqi, yourColor: .black, rules: .xiangqi(repetition: .asian, repetitions: 0, noCapturePlies: 0), startFen: nil),
        ]
        for offer in badOffers {
            try fails(.invalidArgument) {
                _ = try Match.host(playerName: "An", listenAddress: "127.0.0.1:0", advertise: false, offers: [], proposal: offer, listener: l)
            }
        }
        let nowhere = LobbyPeer(id: "id", name: "Nobody", games: [.xiangqi, .chess], protocolVersion: nil,
                                fingerprint: "", host: "h", port: 1, addresses: ["not an address"])
        try fails(.network) { _ = try Match.joinPeer(playerName: "An", peer: nowhere, listener: l) }
        let noAddress = LobbyPeer(id: "id", name: "Nobody", games: [.chess], protocolVersion: 1,
                                  fingerprint: "", host: "h", port: 1, addresses: [])
        try fails(.network) { _ = try Match.joinPeer(playerName: "An", peer: noAddress, listener: l) }
        // A guest with nobody to talk to: every action is refused, nothing panics.
        let lonely = try Match.join(playerName: "An", address: "127.0.0.1:1", listener: l)
        try fails(.match) { _ = try lonely.playText(text: "e4") }
        try fails(.match) { _ = try lonely.play(mv: Move(from: 12, to: 28, promotion: nil)) }
        try fails(.match) { _ = try lonely.tap(column: 255, row: 255) }
        try fails(.match) { _ = try lonely.choosePromotion(piece: .queen) }
        try fails(.match) { try lonely.propose(offer: chess) }
        try fails(.match) { try lonely.confirmCode(code: "123456") }
        try fails(.match) { try lonely.confirmCode(code: "not a code\u{1b}[2K") }
        for action in [lonely.acceptProposal, lonely.declineProposal, lonely.requestUndo,
                       lonely.offerDraw, lonely.claimDraw, lonely.resign] {
            try fails(.match) { try action() }
        }
        try fails(.match) { try lonely.replyUndo(accept: true) }
        try fails(.match) { try lonely.replyDraw(accept: false) }
        try lonely.clearNotice()
        try eq(nil, try lonely.code())
        try lonely.leave()
        try lonely.leave()
        try fails(.match) { try lonely.rejectCode() }
        try mayFail(.network) { try Lobby(interfaces: ["no-such-interface-\u{0}", String(repeating: "x", count: 300)]).stop() }
    }
}
