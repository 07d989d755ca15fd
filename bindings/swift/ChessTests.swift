// A local chess Game: legal moves, SAN and UCI, castling by the king's two-square step,
// promotion, checkmate, stalemate, draws by claim and by rule, save → load.
import Foundation

/// Plays `moves` (SAN or UCI) in order.
func playAll(_ g: Game, _ moves: [String]) throws -> [PlayedMove] {
    try moves.map { try g.playText(text: $0, notation: nil) }
}

func chessTests(_ s: Suite) {
    s.test("chess: start, 20 legal moves, SAN and UCI both ways") {
        let g = try Game(kind: .chess)
        try eq(GameKind.chess, try g.kind())
        try eq([8, 8], [try g.shape().width, try g.shape().height])
        try eq(20, try g.legalMoves().count)
        try eq(32, try g.pieces().count)
        let king = try g.pieceAt(square: try square(.chess, "e1"))
        try eq([PieceKind.king], [king?.kind])
        try eq(["♔", "K", "king"], [king?.glyph, king?.letter, king?.name])
        try eq(["♞", "n"], [try g.pieceAt(square: 57)?.glyph, try g.pieceAt(square: 57)?.letter])
        try eq(["e3", "e4"], try g.legalMovesFrom(square: try square(.chess, "e2"))
            .map { try squareName(kind: .chess, index: $0.to) }.sorted())
        let e4 = try g.playText(text: "e4", notation: .san)
        try eq("e2e4", e4.coordinate)
        try eq("e4", e4.text)
        try eq([MoveText(notation: .san, text: "e4"), MoveText(notation: .coordinate, text: "e2e4")], e4.texts)
        try eq(try move(.chess, "e2", "e4"), e4.played)
        try eq(PieceKind.pawn, e4.piece?.kind)
        let e5 = try g.playText(text: "e7e5", notation: .coordinate)
        try eq(["e7e5", "e5"], [e5.coordinate, e5.text])
        try eq(Color.black, e5.by)
        let nf3 = try g.play(mv: try move(.chess, "g1", "f3"))
        try eq("Nf3", nf3.text)
        try eq("Nc6", try g.playText(text: "b8c6", notation: nil).text)
        for m in try g.legalMoves() {
            for n in notations(kind: .chess) {
                try eq(m, try g.parseMove(text: try g.moveText(mv: m, notation: n), notation: n))
            }
        }
        try eq(["e4", "e5", "Nf3", "Nc6"], try g.historyText(notation: .san))
        try eq(["e2e4", "e7e5", "g1f3", "b8c6"], try g.historyText(notation: .coordinate))
        try fails(.badMoveText) { _ = try g.playText(text: "炮二平五", notation: .chinese) }
        try fails(.illegalMove, .badMoveText) { _ = try g.playText(text: "Ke3", notation: .san) }
    }

    s.test("chess: castling by the king's two-square step, O-O and 0-0") {
        let g = try Game(kind: .chess)
        _ = try playAll(g, ["e4", "e5", "Nf3", "Nf6", "Bc4", "Bc5"])
        let castle = try move(.chess, "e1", "g1")
        try check(try g.isLegal(mv: castle))
        try eq("O-O", try g.moveText(mv: castle, notation: .san))
        try eq("e1g1", try g.moveText(mv: castle, notation: .coordinate))
        let p = try g.play(mv: castle)
        try eq(["O-O", "e1g1"], [p.text, p.coordinate])
        try eq(PieceKind.king, try g.pieceAt(square: try square(.chess, "g1"))?.kind)
        try eq(PieceKind.rook, try g.pieceAt(square: try square(.chess, "f1"))?.kind)
        try eq(nil, try g.pieceAt(square: try square(.chess, "h1")))
        let black = try g.playText(text: "0-0", notation: nil)
        try eq(["O-O", "e8g8"], [black.text, black.coordinate])
        try eq("rnbq1rk1/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 w - - 6 5", try g.fen())
    }

    s.test("chess: promotion, with the piece named") {
        let g = try Game.fromFen(kind: .chess, fen: "8/P6k/8/8/8/8/8/K7 w - - 0 1")
        let a7 = try square(.chess, "a7"), a8 = try square(.chess, "a8")
        let choices = try g.legalMovesFrom(square: a7)
        try eq(4, choices.count)
        try eq(Set([PieceKind.queen, .rook, .bishop, .knight]), Set(choices.compactMap { $0.promotion }))
        try check(choices.allSatisfy { $0.to == a8 })
        try fails(.illegalMove) { _ = try g.play(mv: Move(from: a7, to: a8, promotion: nil)) }
        try fails(.illegalMove) { _ = try g.play(mv: Move(from: a7, to: a8, promotion: .cannon)) }
        try eq("a8=N", try g.moveText(mv: Move(from: a7, to: a8, promotion: .knight), notation: .san))
        try eq("a7a8r", try g.moveText(mv: Move(from: a7, to: a8, promotion: .rook), notation: .coordinate))
        let q = try g.play(mv: Move(from: a7, to: a8, promotion: .queen))
        try eq(["a8=Q", "a7a8q"], [q.text, q.coordinate])
        try eq(PieceKind.queen, q.played.promotion)
        try eq(["♕", "Q"], [try g.pieceAt(square: a8)?.glyph, try g.pieceAt(square: a8)?.letter])
        _ = try g.undo()
        try eq("a8=R", try g.playText(text: "a8=R", notation: .san).text)
        _ = try g.undo()
        try eq("a8=B", try g.playText(text: "a7a8b", notation: .coordinate).text)
    }

    s.test("chess: checkmate (fool's mate) and stalemate end the game") {
        let g = try Game(kind: .chess)
        let rec = RecordingGameListener()
        try g.setListener(listener: rec)
        let moves = try playAll(g, ["f3", "e5", "g4", "Qh4#"])
        try eq("Qh4#", moves.last?.text)
        try check(moves.last!.givesCheck)
        let st = try g.status()
        try eq(Outcome.win(winner: .black, reason: .checkmate), st.outcome)
        try eq("0-1", st.result)
        try eq("0-1 checkmate", st.resultText)
        try check(st.inCheck)
        try eq("You lost: checkmate", resultText(kind: .chess, outcome: st.outcome!, me: .red))
        try check(try g.legalMoves().isEmpty)
        guard case .gameOver(let o, _)? = rec.events.last else { throw TestFailure(description: "\(rec.events)") }
        try eq(st.outcome, o)
        try fails(.gameOver) { _ = try g.playText(text: "a3", notation: nil) }

        let stale = try Game.fromFen(kind: .chess, fen: "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")
        try eq("Qf7", try stale.playText(text: "Qf7", notation: .san).text)
        let ss = try stale.status()
        try eq(Outcome.draw(reason: .stalemate), ss.outcome)
        try eq("1/2-1/2", ss.result)
        try check(!ss.inCheck)
        try eq("Draw: stalemate", resultText(kind: .chess, outcome: ss.outcome!, me: .black))
    }

    s.test("chess: threefold repetition claimed, fifty moves, automatic with autoClaim") {
        let g = try Game(kind: .chess)
        let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]
        _ = try playAll(g, shuffle)
        let st = try g.status()
        try eq(nil, st.outcome)
        try eq(DrawReason.threefoldRepetition, st.claimableDraw)
        let rec = RecordingGameListener()
        try g.setListener(listener: rec)
        try eq(Outcome.draw(reason: .threefoldRepetition), try g.claimDraw())
        try eq(Outcome.draw(reason: .threefoldRepetition), try g.status().outcome)
        try eq(nil, try g.status().claimableDraw)
        guard case .gameOver? = rec.events.last else { throw TestFailure(description: "\(rec.events)") }
        try fails(.gameOver) { _ = try g.playText(text: "Nf3", notation: nil) }
        try fails(.gameOver) { _ = try g.claimDraw() }
        // The claim is part of the saved game.
        try eq(Outcome.draw(reason: .threefoldRepetition), try Game.load(bytes: try g.save()).status().outcome)
        // Undo withdraws the claim alone (as VsComputer.undo does); the next undo takes back a move.
        let ply = try g.status().ply
        try eq(nil, try g.undo())
        guard case .endingWithdrawn(ply)? = rec.events.last else { throw TestFailure(description: "\(rec.events)") }
        try eq(nil, try g.status().outcome)
        try eq(ply, try g.status().ply)
        try check(try g.undo() != nil)
        try eq(ply - 1, try g.status().ply)

        let auto = try Game(kind: .chess)
        try auto.setRules(rules: .chess(autoClaim: true))
        try eq(Rules.chess(autoClaim: true), try auto.rules())
        _ = try playAll(auto, shuffle)
        try eq(Outcome.draw(reason: .threefoldRepetition), try auto.status().outcome)

        let fifty = try Game.fromFen(kind: .chess, fen: "8/8/8/8/8/8/R7/K6k w - - 99 60")
        try eq(nil, try fifty.status().claimableDraw)
        _ = try fifty.playText(text: "Ra3", notation: nil)
        try eq(DrawReason.fiftyMoveRule, try fifty.status().claimableDraw)
        try eq(Outcome.draw(reason: .fiftyMoveRule), try fifty.claimDraw())

        let bare = try Game.fromFen(kind: .chess, fen: "8/8/8/8/8/8/8/K6k w - - 0 1")
        try eq(Outcome.draw(reason: .insufficientMaterial), try bare.status().outcome)
    }

    s.test("chess: save → load round trip with rules, history and redo") {
        let g = try Game(kind: .chess)
        try g.setRules(rules: .chess(autoClaim: true))
        _ = try playAll(g, ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6"])
        _ = try g.undo()
        let bytes = try g.save()
        let back = try Game.load(bytes: bytes)
        try eq(GameKind.chess, try back.kind())
        try eq(try g.fen(), try back.fen())
        try eq(try g.history(), try back.history())
        try eq(try g.historyText(notation: .san), try back.historyText(notation: .san))
        try eq(Rules.chess(autoClaim: true), try back.rules())
        try eq(chessStart, try back.startFen())
        try eq("a6", try back.redo()?.text)
        let fromFen = try Game.fromFen(kind: .chess, fen: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
        _ = try fromFen.play(mv: try move(.chess, "e1", "c1"))
        let again = try Game.load(bytes: try fromFen.save())
        try eq("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", try again.startFen())
        try eq(["O-O-O"], try again.historyText(notation: .san))
        try eq(try fromFen.fen(), try again.fen())
    }
}
