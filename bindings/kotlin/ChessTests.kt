// Game (chess): 20 moves from the start, SAN and UCI text, castling by the king's two-square
// step, promotion, checkmate, stalemate, a claimed threefold repetition, save → load.
package org.banco.tests

import org.banco.*

private val CHESS = GameKind.CHESS

fun cmv(from: String, to: String, promotion: PieceKind? = null) = mv(from, to, CHESS, promotion)

fun chessTests(s: Suite) {
    s.test("chess: start, 20 legal moves, pieces and glyphs") {
        Game(CHESS).use { g ->
            eq(CHESS, g.kind())
            eq(20, g.legalMoves().size)
            eq(32, g.pieces().size)
            eq(Rules.Chess(false), g.rules())
            val king = g.pieceAt(sq("e1", CHESS))!!
            eq(PieceKind.KING to Color.RED, king.kind to king.color)
            eq("K", king.letter)
            eq("♔", king.glyph)
            eq("♛", g.pieceAt(sq("d8", CHESS))?.glyph)
            eq("n", g.pieceAt(sq("g8", CHESS))?.letter)
            eq(listOf("f3", "h3"), g.legalMovesFrom(sq("g1", CHESS)).map { name(it.to, CHESS) }.sorted())
            eq(listOf("e3", "e4"), g.legalMovesFrom(sq("e2", CHESS)).map { name(it.to, CHESS) }.sorted())
            check(g.legalMovesFrom(sq("e1", CHESS)).isEmpty())
            check(g.isLegal(cmv("e2", "e4")) && !g.isLegal(cmv("e2", "e5")))
        }
    }

    s.test("chess: SAN and UCI, both ways") {
        Game(CHESS).use { g ->
            val e4 = g.playText("e4", Notation.SAN)
            eq("e2e4", e4.coordinate)
            eq("e4", e4.text)
            eq(setOf(Notation.SAN, Notation.COORDINATE), e4.texts.map { it.notation }.toSet())
            eq(PieceKind.PAWN, e4.piece?.kind)
            eq("e7e5", g.playText("e7e5", Notation.COORDINATE).coordinate)
            eq("g1f3", g.playText("Nf3", null).coordinate)
            eq("Nc6", g.play(cmv("b8", "c6")).text)
            eq("Bb5", g.playText("f1b5", null).text)
            eq("a6", g.moveText(cmv("a7", "a6"), Notation.SAN))
            eq("a7a6", g.moveText(cmv("a7", "a6"), Notation.COORDINATE))
            eq(cmv("g8", "f6"), g.parseMove("Nf6", Notation.SAN))
            for (m in g.legalMoves()) {
                for (n in notations(CHESS)) eq(m, g.parseMove(g.moveText(m, n), n), "round trip in $n")
            }
            g.playText("a6", null)
            val capture = g.playText("Bxc6", Notation.SAN)
            eq(PieceKind.KNIGHT, capture.captured?.kind)
            eq(Color.BLACK, capture.captured?.color)
            eq(listOf("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6"), g.historyText(Notation.SAN))
            eq(listOf("e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6"), g.historyText(Notation.COORDINATE))
            throws<BancoException.BadMoveText> { g.playText("C2=5", Notation.SAN) }
            throws<BancoException.BadMoveText> { g.playText("炮二平五", null) }
            throws<BancoException.IllegalMove> { g.playText("Ke2", Notation.SAN) }
        }
    }

    s.test("chess: castling by the king's two-square step") {
        Game.fromFen(CHESS, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").use { g ->
            val targets = g.legalMovesFrom(sq("e1", CHESS)).map { name(it.to, CHESS) }
            check("g1" in targets && "c1" in targets) { "$targets" }
            val short = g.play(cmv("e1", "g1"))
            eq("O-O", short.text)
            eq("e1g1", short.coordinate)
            eq(PieceKind.ROOK, g.pieceAt(sq("f1", CHESS))?.kind)
            eq(null, g.pieceAt(sq("h1", CHESS)))
            val long = g.play(cmv("e8", "c8"))
            eq("O-O-O", long.text)
            eq(PieceKind.ROOK, g.pieceAt(sq("d8", CHESS))?.kind)
            eq(PieceKind.KING, g.pieceAt(sq("c8", CHESS))?.kind)
            check(g.fen().startsWith("2kr3r/8/8/8/8/8/8/R4RK1 w - -")) { g.fen() }
            g.undo()
            eq(PieceKind.ROOK, g.pieceAt(sq("a8", CHESS))?.kind, "undo puts the rook back")
            eq(cmv("e8", "c8"), g.parseMove("O-O-O", Notation.SAN))
        }
    }

    s.test("chess: promotion") {
        Game.fromFen(CHESS, "8/P6k/8/8/8/8/8/K7 w - - 0 1").use { g ->
            val choices = g.legalMovesFrom(sq("a7", CHESS))
            eq(setOf(PieceKind.QUEEN, PieceKind.ROOK, PieceKind.BISHOP, PieceKind.KNIGHT), choices.map { it.promotion }.toSet())
            check(choices.all { name(it.to, CHESS) == "a8" })
            throws<BancoException.IllegalMove> { g.play(cmv("a7", "a8")) }
            throws<BancoException.IllegalMove> { g.play(cmv("a7", "a8", PieceKind.CANNON)) }
            throws<BancoException.IllegalMove> { g.play(cmv("a7", "a8", PieceKind.KING)) }
            eq("a8=N", g.moveText(cmv("a7", "a8", PieceKind.KNIGHT), Notation.SAN))
            eq("a7a8n", g.moveText(cmv("a7", "a8", PieceKind.KNIGHT), Notation.COORDINATE))
            val q = g.play(cmv("a7", "a8", PieceKind.QUEEN))
            eq("a7a8q", q.coordinate)
            eq("a8=Q", q.text)
            eq(PieceKind.QUEEN, q.played.promotion)
            eq(PieceKind.QUEEN, g.pieceAt(sq("a8", CHESS))?.kind)
            g.undo()
            eq(cmv("a7", "a8", PieceKind.ROOK), g.playText("a8=R", Notation.SAN).played)
            g.undo()
            eq("a8=B", g.playText("a7a8b", Notation.COORDINATE).text)
        }
    }

    s.test("chess: checkmate (fool's mate) and stalemate") {
        Game(CHESS).use { g ->
            val rec = RecordingGameListener()
            g.setListener(rec)
            for (m in listOf("f3", "e5", "g4")) g.playText(m, Notation.SAN)
            val mate = g.playText("Qh4", Notation.SAN)
            eq("Qh4#", mate.text)
            check(mate.givesCheck)
            val st = g.status()
            eq(Outcome.Win(Color.BLACK, WinReason.CHECKMATE), st.outcome)
            eq("0-1", st.result)
            check(st.inCheck && g.legalMoves().isEmpty())
            eq(st.outcome, (rec.events.last() as GameEvent.GameOver).outcome)
            throws<BancoException.GameOver> { g.play(cmv("a2", "a3")) }
            eq("You won: checkmate", resultText(CHESS, st.outcome!!, Color.BLACK))
            eq("White", colorName(CHESS, Color.RED))
        }
        Game.fromFen(CHESS, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").use { g ->
            val st = g.status()
            eq(Outcome.Draw(DrawReason.Stalemate), st.outcome)
            eq("1/2-1/2", st.result)
            check(!st.inCheck && g.legalMoves().isEmpty())
        }
    }

    s.test("chess: threefold repetition is claimed") {
        Game(CHESS).use { g ->
            val rec = RecordingGameListener()
            g.setListener(rec)
            val dance = listOf("Nf3", "Nf6", "Ng1", "Ng8")
            for (m in dance) g.playText(m, Notation.SAN)
            eq(null, g.status().claimableDraw)
            throws<BancoException.NotAvailable> { g.claimDraw() }
            for (m in dance) g.playText(m, Notation.SAN)
            eq(DrawReason.ThreefoldRepetition, g.status().claimableDraw)
            eq(null, g.status().outcome, "a claim, not an automatic draw")
            val o = g.claimDraw()
            eq(Outcome.Draw(DrawReason.ThreefoldRepetition), o)
            eq(o, g.status().outcome)
            eq(o, (rec.events.last() as GameEvent.GameOver).outcome)
            throws<BancoException.GameOver> { g.playText("e4", null) }
            // The claim is kept in the saved game.
            Game.load(g.save()).use { back -> eq(o, back.status().outcome) }
            // Undo withdraws the claim alone (as VsComputer.undo does); the next undo takes back a move.
            val ply = g.status().ply
            eq(null, g.undo())
            eq(GameEvent.EndingWithdrawn(ply), rec.events.last())
            eq(null, g.status().outcome)
            eq(ply, g.status().ply)
            check(g.undo() != null)
            eq(ply - 1u, g.status().ply)
        }
    }

    s.test("chess: save and load round trip, rules, copy") {
        Game(CHESS).use { g ->
            for (m in listOf("e4", "c5", "Nf3", "d6", "d4")) g.playText(m, Notation.SAN)
            g.undo()
            g.setRules(Rules.Chess(true))
            val bytes = g.save()
            Game.load(bytes).use { back ->
                eq(CHESS, back.kind())
                eq(g.fen(), back.fen())
                eq(g.history(), back.history())
                eq(Rules.Chess(true), back.rules())
                eq(startFen(CHESS), back.startFen())
                eq("d4", back.redo()?.text)
            }
            val copy = g.copy()
            eq(g.fen(), copy.fen())
            copy.playText("d4", null)
            check(copy.fen() != g.fen())
            copy.close()
            throws<BancoException.InvalidArgument> { g.setRules(defaultRules(GameKind.XIANGQI)!!) }
        }
        Game.fromFen(CHESS, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").use { g ->
            g.playText("O-O", Notation.SAN)
            Game.load(g.save()).use { back ->
                eq("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", back.startFen())
                eq(g.fen(), back.fen())
            }
        }
    }
}
