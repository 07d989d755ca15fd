// Jieqi through the boundary: a whole game against the computer (face-down cells, pools, a
// reveal drawn on the device and announced, save/resume replaying it, then on to the end)
// and a jieqi match between two Match objects over loopback, every reveal drawn fairly by
// both and announced alike.
import Foundation

/// The cell of a board view named `name` (`h2`).
func cell(_ b: BoardView, named name: String) throws -> Cell {
    guard let c = b.cells.first(where: { $0.name == name }) else {
        throw TestFailure(description: "no cell named \(name)")
    }
    return c
}

/// Face-down pieces on a board.
func faceDown(_ b: BoardView) -> Int { b.cells.filter { $0.piece?.faceDown == true }.count }

func jieqiTests(_ s: Suite) {
    s.test("a jieqi Game for two players on one device: each reveal comes with its step") {
        let g = try Game.withChanceSeed(kind: .jieqi, fen: nil, chanceSeed: 7)
        let start = try g.fen()
        let a0a1 = Move(from: 0, to: 9, promotion: nil)
        let played = try g.play(mv: a0a1)
        let revealed = try played.revealed.orThrow("the piece turned over")
        try check(!revealed.faceDown, "\(revealed)")
        try eq("rook a0 revealed: \(revealed.name)", played.announcement)
        try eq(Color.black, try g.status().sideToMove)
        let moves = try g.legalMoves()
        try check(moves.count > 40, "\(moves.count) moves for Black")
        _ = try g.play(mv: moves[0])
        let back = try Game.load(bytes: try g.save())
        try check(!(try back.legalMoves()).isEmpty, "a loaded game goes on")
        // The pieces still face down turn up as dealt: save and load cannot draw again.
        let dealt = try g.copy().playText(text: "i0i1", notation: nil).revealed
        try check(dealt != nil, "i0i1 turns a piece over")
        try eq(dealt, try back.playText(text: "i0i1", notation: nil).revealed)
        _ = try g.undo()
        try eq(a0a1, try g.undo())
        try eq(start, try g.fen())
        try eq(revealed, try g.play(mv: a0a1).revealed)
    }

    s.test("jieqi vs the computer: face-down cells, pools, reveals, save and resume, to the end") {
        let l = StateInbox()
        let settings = VsSettings(kind: .jieqi, human: .red, level: 1, rules: nil, movetimeMs: 20,
                                  fen: nil, chanceSeed: 7)
        let vs = try VsComputer(settings: settings, listener: l)
        defer { try? vs.end() }
        let first = try l.next("the player's turn") { $0.yourTurn }
        try eq(30, faceDown(first.board))
        let h2 = try cell(first.board, named: "h2").piece!
        try check(h2.faceDown && h2.color == .red && h2.letter == "X", "\(h2)")
        try eq(PieceKind.cannon, h2.kind, "a face-down piece moves as its home square's kind")
        try eq(2, first.board.pools.count)
        try eq([Color.red, .black], first.board.pools.map { $0.color })
        try eq([15, 15], first.board.pools.map { $0.total })
        try eq([15, 15], first.board.pools.map { $0.faceDown })
        try eq(15, first.board.pools[0].entries.reduce(0) { $0 + Int($1.count) }, "the counts add up")
        try check(first.board.pools[0].entries.allSatisfy { !$0.piece.faceDown && $0.piece.color == .red })
        // Placed by Rust beside the board: the player (Red, not flipped) below.
        let sides = try first.board.poolSides.orThrow("pool sides")
        try eq([Color.black, .red], [sides.top.color, sides.bottom.color])
        try eq(first.board.pools[0], sides.bottom)

        let played = try vs.playText(text: "h2e2")
        guard let revealed = played.revealed else { throw TestFailure(description: "no reveal in \(played)") }
        try check(!revealed.faceDown)
        try eq("cannon h2 revealed: \(revealed.name)", played.announcement)
        let answered = try l.next("the computer's answer") { $0.moves.count == 2 && $0.yourTurn }
        try eq(14, answered.board.pools[0].total)
        // The computer's reply (level 1 in 20 ms: which move depends on the time it had)
        // shrinks its pool, and is announced, exactly when it turns a piece over.
        guard let reply = answered.lastMove else { throw TestFailure(description: "the computer's reply: \(answered)") }
        try eq(Color.black, reply.by)
        if reply.revealed != nil {
            try eq(14, answered.board.pools[1].total, "the computer's step revealed a piece")
            try check(reply.announcement?.contains(" revealed: ") == true, "\(reply)")
        } else {
            try eq(15, answered.board.pools[1].total, "the computer's move \(reply.coordinate) revealed nothing")
            try eq(nil, reply.announcement)
        }
        try eq(revealed.kind, try cell(answered.board, named: "e2").piece?.kind)
        let red = answered.board.pools[0].entries.first { $0.piece.kind == revealed.kind }?.count ?? 0
        let before = first.board.pools[0].entries.first { $0.piece.kind == revealed.kind }?.count ?? 0
        try eq(before - 1, red, "the revealed kind left the pool")

        let bytes = try vs.save()
        let l2 = StateInbox()
        let back = try VsComputer.resume(saved: bytes, settings: settings, listener: l2)
        defer { try? back.end() }
        try eq(answered.fen, try l2.next("the resumed game") { $0.yourTurn }.fen)

        // On to the end (or 300 plies): pools never grow, every reveal is announced, and
        // the face-down pieces on the board never outnumber the pool.
        var st = answered
        var reveals = 2
        while st.outcome == nil && st.moves.count < 300 {
            // A legal move picked by the ply (varied, so the game is not a quick repetition).
            let legal = try Game.fromFen(kind: .jieqi, fen: st.fen).legalMoves()
            let mine = try vs.play(mv: legal[(st.moves.count * 7 + 3) % legal.count])
            if mine.revealed != nil { reveals += 1 }
            let n = st.moves.count
            let next = try l.next("the computer answers at ply \(n + 1)") {
                $0.outcome != nil || ($0.moves.count == n + 2 && $0.yourTurn)
            }
            for (was, now) in zip(st.board.pools, next.board.pools) {
                try check(now.total <= was.total && now.faceDown <= now.total, "\(was) -> \(now)")
            }
            try eq(Int(next.board.pools.reduce(0) { $0 + $1.faceDown }), faceDown(next.board))
            if next.moves.count == n + 2, next.lastMove?.revealed != nil {
                try check(next.lastMove?.announcement?.contains(" revealed: ") == true)
                reveals += 1
            }
            st = next
        }
        try check(st.outcome != nil || st.moves.count >= 300, "\(st.moves.count) plies")
        print("  jieqi vs the computer: \(st.moves.count) plies, \(reveals) reveals, \(st.result ?? "no result")")
        if st.outcome != nil { try check(st.result != nil && !st.yourTurn, "\(st)") }
        try check(reveals >= 4, "\(reveals) reveals in \(st.moves.count) plies")
        try check(30 - faceDown(st.board) >= reveals, "each reveal turned a piece up")
    }

    s.test("a jieqi match between two Match objects over loopback: fair reveals") {
        let (host, hl, guest, gl) = try pair(offers: [.jieqi],
                                              proposal: MatchOffer(game: .jieqi, yourColor: .red, rules: nil, startFen: nil))
        defer { try? guest.leave(); try? host.leave() }
        let gs = try waitState(guest, "guest playing") { $0.phase == .playing }
        try eq(30, faceDown(gs.board!))
        try eq([15, 15], gs.board!.pools.map { $0.total })
        for (side, step) in [(host, "h2e2"), (guest, "h9g7"), (host, "b0c2")] {
            _ = try waitState(side, "\(step)'s turn") { $0.yourTurn }
            _ = try side.playText(text: step)
            func reveal(_ l: SwiftMatchListener) throws -> (PlayedMove, Bool, UInt32) {
                try l.next("the reveal of \(step)") { e -> (PlayedMove, Bool, UInt32)? in
                    if case .pieceRevealed(let r, let mine, let draw) = e { return (r, mine, draw) }
                    return nil
                }
            }
            let (h, hMine, hDraw) = try reveal(hl)
            let (g, gMine, gDraw) = try reveal(gl)
            try eq(h.revealed, g.revealed, "both drew the same piece")
            try check(h.revealed.map { !$0.faceDown } == true, "\(h)")
            try eq(hDraw, gDraw)
            try check(hMine != gMine, "the piece is one side's")
            try check(h.announcement?.contains(" revealed: ") == true, "\(h)")
        }
        try samePosition(host, guest, reveals: 3)
    }
}

/// Both sides reach the same position and pools, `reveals` pieces drawn, the guest to move.
private func samePosition(_ host: Match, _ guest: Match, reveals: UInt32) throws {
    let deadline = Date().addingTimeInterval(20)
    while try host.state().fen != guest.state().fen || !guest.state().yourTurn {
        try check(Date() < deadline, "the same position on both sides")
        Thread.sleep(forTimeInterval: 0.01)
    }
    let left = try host.state().board!.pools.reduce(UInt32(0)) { $0 + $1.total }
    try eq(reveals, 30 - left, "pieces revealed")
    try eq(try host.state().board!.pools, try guest.state().board!.pools)
}
