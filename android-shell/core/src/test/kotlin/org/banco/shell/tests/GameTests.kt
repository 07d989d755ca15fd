// The game against the computer through GameController: xiangqi and chess by taps, the end
// of a game, undo/redo by whole turns (also while the computer thinks), leaving and coming
// back, hints, a promotion through the picker, save and continue, levels refused by Rust,
// puzzles.
package org.banco.shell.tests

import org.banco.Color
import org.banco.DrawReason
import org.banco.Game
import org.banco.GameKind
import org.banco.Outcome
import org.banco.PieceKind
import org.banco.TapResult
import org.banco.VsState
import org.banco.builtinPuzzles
import org.banco.shell.GameController
import org.banco.shell.MemoryStore
import org.banco.shell.Settings
import org.banco.shell.Sound
import org.banco.shell.SoundPlayer
import org.banco.shell.cellNamed
import java.util.Base64
import java.util.concurrent.CopyOnWriteArrayList

const val XQ_MATE_IN_ONE = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"

/** A controller on its own UI thread, with a store and a sound log. */
class GameFixture(val store: MemoryStore = MemoryStore(), movetimeMs: Long = 50, chanceSeed: Long? = null) : AutoCloseable {
    val ui = TestUi()
    val sounds = CopyOnWriteArrayList<Sound>()
    val c = GameController(ui, store, SoundPlayer { sounds += it }, movetimeMs, chanceSeed)

    fun state() = ui.call { c.state.value }
    fun vs(): VsState = state().vs ?: throw AssertionError("no game on screen: ${state()}")

    /** Waits for a state of the game that satisfies [pred]. */
    fun await(what: String, pred: (VsState) -> Boolean): VsState =
        ui.await(c.state, what) { s -> s.vs?.let(pred) == true }.vs!!

    /** Waits until [moves] moves are played and it is the player's turn (or the game is over). */
    fun awaitTurn(moves: Int): VsState =
        await("the player's turn after $moves moves") { it.moves.size == moves && !it.thinking && (it.yourTurn || it.outcome != null) }

    /** Taps the cell showing square [name], as a finger would. */
    fun tap(name: String): TapResult? = ui.call {
        val cell = c.state.value.vs!!.board.cellNamed(name) ?: throw AssertionError("no square $name")
        c.tap(cell.column.toInt(), cell.row.toInt())
    }

    /** Taps [from]-[to] if it is legal now, else the first legal move (the computer's replies vary). */
    fun tapScripted(from: String, to: String): Pair<String, String> {
        val s = vs()
        val (f, t) = Game.fromFen(s.kind, s.fen).use { g ->
            val legal = g.legalMoves()
            val shape = g.shape()
            val m = legal.firstOrNull { shape.squareNames[it.from.toInt()] == from && shape.squareNames[it.to.toInt()] == to } ?: legal.first()
            shape.squareNames[m.from.toInt()] to shape.squareNames[m.to.toInt()]
        }
        tap(f)
        tap(t)
        return f to t
    }

    override fun close() {
        ui.call { c.close() }
        ui.shutdown()
    }
}

fun gameTests(s: Suite) {
    s.test("xiangqi vs the computer by taps: it answers, saved after every move") {
        GameFixture().use { f ->
            check(f.ui.call { f.c.newGame(Settings(level = 1, color = Color.RED)) })
            var st = f.awaitTurn(0)
            check(!st.board.flipped && !st.canUndo && st.yourTurn)
            eq(GameKind.XIANGQI, st.kind)
            eq(TapResult.Ignored, f.tap("h9"), "the computer's piece")
            eq(TapResult.Selected(25u), f.tap("h2"))
            f.await("the cannon's targets") { it.board.cellNamed("e2")!!.target && it.board.cellNamed("h2")!!.selected }
            eq(TapResult.Cleared, f.tap("e5"))
            val script = listOf("h2" to "e2", "h0" to "g2", "i0" to "h0", "b0" to "c2", "a0" to "a1")
            for ((i, step) in script.withIndex()) {
                f.tapScripted(step.first, step.second)
                st = f.awaitTurn(2 * (i + 1))
                if (st.outcome != null) break
                eq(Color.BLACK, st.lastMove?.by, "the computer's move is the last move")
                check(st.canUndo)
            }
            eq("炮二平五", st.moves.first())
            f.ui.call { f.c.flip() }
            check(f.await("flipped") { it.board.flipped }.board.cellNamed("a0")!!.row.toInt() == 0) { "a0 at the top" }
            check(f.sounds.isNotEmpty() && Sound.GAME_OVER !in f.sounds) { "${f.sounds}" }
            check(f.ui.call { f.c.canContinue() }) { "the game is saved after every move" }
            eq(null, f.state().message)
        }
    }

    s.test("the game ends: mate in one by taps, result shown, saved game cleared") {
        GameFixture().use { f ->
            f.ui.call { f.c.newGame(Settings(level = 1), fen = XQ_MATE_IN_ONE) }
            f.awaitTurn(0)
            check(!f.ui.call { f.c.canContinue() }) { "a new game is kept from the player's first move" }
            f.tap("e1")
            eq(TapResult.Moved(org.banco.Move(13u, 12u, null)), f.tap("d1"))
            val st = f.await("game over") { it.result != null }
            eq("You won: checkmate", st.result)
            check(!st.yourTurn && !st.thinking)
            check(!f.ui.call { f.c.canContinue() }) { "a finished game is not offered to continue" }
            f.ui.await(f.c.state, "the end's sound") { f.sounds.lastOrNull() == Sound.GAME_OVER }
            eq(Sound.CHECK, f.sounds[f.sounds.size - 2], "the mating move gave check")
            f.ui.call { f.c.tap(0, 0) }
            eq(1, f.vs().moves.size, "no move after the end")
        }
    }

    s.test("undo and redo by whole turns; undo while the computer thinks") {
        GameFixture().use { f ->
            f.ui.call { f.c.newGame(Settings(level = 1, sound = false)) }
            f.awaitTurn(0)
            f.tapScripted("h2", "e2")
            f.awaitTurn(2)
            f.tapScripted("h0", "g2")
            val four = f.awaitTurn(4)
            f.ui.call { f.c.undo() }
            var st = f.await("undone") { it.moves.size == 2 }
            check(st.canRedo && st.yourTurn && !st.thinking) { "undo takes back the reply and the player's move: $st" }
            f.ui.call { f.c.redo() }
            st = f.await("redone") { it.moves.size == 4 }
            eq(four.fen, st.fen)
            eq(four.lastMove, st.lastMove)
            check(!st.thinking && !st.canRedo)
            f.ui.call { f.c.undo() }
            f.await("undone once") { it.moves.size == 2 }
            f.ui.call { f.c.undo() }
            st = f.await("undone twice") { it.moves.isEmpty() }
            check(!st.canUndo)
            f.ui.call { f.c.undo() } // nothing left: Rust says so
            check(f.state().message?.contains("nothing") == true || f.state().message?.contains("no move") == true) { "${f.state().message}" }
            f.ui.call { f.c.clearMessage() }
            check(f.sounds.isEmpty()) { "sound off" }
        }
        GameFixture(movetimeMs = 60_000).use { f ->
            // Undo while the computer thinks takes back the player's move and drops its search.
            f.ui.call { f.c.newGame(Settings(level = 10)) }
            f.awaitTurn(0)
            f.tapScripted("h2", "e2")
            val thinking = f.await("thinking") { it.thinking }
            check(thinking.canUndo && !thinking.yourTurn)
            eq(TapResult.Ignored, f.tap("b0"), "taps in the computer's turn do nothing")
            f.ui.call { f.c.undo() }
            val st = f.await("undone") { it.moves.isEmpty() }
            check(!st.thinking && st.yourTurn) { "$st" }
            Thread.sleep(300)
            eq(0, f.vs().moves.size, "the dropped search's move is not played")
        }
    }

    s.test("leaving while the computer thinks stops it; coming back it thinks again") {
        GameFixture(movetimeMs = 60_000).use { f ->
            f.ui.call { f.c.newGame(Settings(level = 10)) }
            f.awaitTurn(0)
            f.tapScripted("b2", "e2")
            f.await("thinking") { it.thinking }
            f.ui.call { f.c.pause() }
            check(f.state().paused)
            check(f.ui.call { f.c.canContinue() })
            f.ui.call { f.c.tap(0, 9) }
            Thread.sleep(300)
            eq(1, f.vs().moves.size, "no move while away")
            f.ui.call { f.c.resume() }
            check(!f.state().paused)
            val back = f.await("thinking again") { it.thinking }
            eq(1, back.moves.size)
            f.ui.call { f.c.undo() }
            f.await("undone") { it.moves.isEmpty() && it.yourTurn }
        }
    }

    s.test("a hint for the player, gone after the move") {
        GameFixture().use { f ->
            f.ui.call { f.c.newGame(Settings(level = 1)) }
            f.awaitTurn(0)
            f.ui.call { f.c.hint() }
            val st = f.await("the hint") { it.hint != null && !it.hinting }
            val hint = st.hint!!
            eq(2, st.board.cells.count { it.hint })
            check(Game.fromFen(GameKind.XIANGQI, st.fen).use { it.isLegal(hint.played) })
            val from = st.board.cells.first { it.square == hint.played.from }.name
            val to = st.board.cells.first { it.square == hint.played.to }.name
            f.tap(from)
            f.tap(to)
            val after = f.await("moved") { it.moves.isNotEmpty() }
            eq(null, after.hint, "the hint goes once a move is played")
        }
    }

    s.test("save and continue: another controller continues the game; damaged saves refused") {
        val store = MemoryStore()
        val before: VsState
        GameFixture(store).use { f ->
            f.ui.call { f.c.newGame(Settings(level = 2, color = Color.BLACK)) }
            val st = f.awaitTurn(1)
            check(st.board.flipped) { "Black plays from the bottom" }
            f.tapScripted("h9", "g7")
            before = f.awaitTurn(3)
        }
        GameFixture(store).use { f ->
            check(f.ui.call { f.c.canContinue() })
            check(f.ui.call { f.c.continueGame(Settings()) })
            val st = f.awaitTurn(3)
            eq(before.fen, st.fen, "same position")
            eq(Color.BLACK, st.human)
            eq(2, st.level.toInt())
            check(st.board.flipped && st.lastMove != null && st.canUndo)
            eq(before.moves, st.moves)
            check(f.sounds.isEmpty()) { "continuing plays no sound: ${f.sounds}" }
        }
        // A damaged record is refused with a message and set aside.
        val damaged = Base64.getEncoder().encodeToString(byteArrayOf(1, 2, 3))
        store.putString(GameController.K_CONTINUE, damaged)
        GameFixture(store).use { f ->
            check(!f.ui.call { f.c.continueGame(Settings()) })
            check(f.state().message?.contains("could not be continued") == true) { "${f.state().message}" }
            check(!f.ui.call { f.c.canContinue() })
            eq(damaged, store.getString(GameController.K_CONTINUE + ".damaged"), "set aside")
        }
        store.putString(GameController.K_CONTINUE, "%%% not base64")
        GameFixture(store).use { f ->
            check(!f.ui.call { f.c.continueGame(Settings()) })
            eq(null, f.state().vs)
        }
    }

    s.test("a new game started by mistake and left before the player's move keeps the game to continue") {
        val store = MemoryStore()
        GameFixture(store).use { f ->
            check(f.ui.call { f.c.newGame(Settings(level = 1, sound = false)) })
            f.awaitTurn(0)
            f.tapScripted("h2", "e2")
            f.awaitTurn(2)
        }
        val kept = store.getString(GameController.K_CONTINUE)
        check(kept != null)
        GameFixture(store).use { f ->
            // "Play Chess" tapped by mistake, as Black: the computer moves, the player does not.
            check(f.ui.call { f.c.newGame(Settings(game = GameKind.CHESS, level = 1, color = Color.BLACK, sound = false)) })
            f.awaitTurn(1)
            eq(kept, store.getString(GameController.K_CONTINUE), "the game to continue stays")
            // Away and back: the new game goes on (held in memory), the kept one still stays.
            f.ui.call { f.c.pause() }
            f.ui.call { f.c.resume() }
            eq(GameKind.CHESS, f.awaitTurn(1).kind)
            eq(kept, store.getString(GameController.K_CONTINUE), "pausing a new game keeps the old one")
        }
        GameFixture(store).use { f ->
            check(f.ui.call { f.c.continueGame(Settings()) })
            val st = f.awaitTurn(2)
            eq(GameKind.XIANGQI, st.kind)
            eq("炮二平五", st.moves.first())
            // A new game replaces it at the player's first move.
            check(f.ui.call { f.c.newGame(Settings(game = GameKind.CHESS, level = 1, sound = false)) })
            f.awaitTurn(0)
            eq(kept, store.getString(GameController.K_CONTINUE))
            f.tapScripted("e2", "e4")
            f.awaitTurn(2)
            check(store.getString(GameController.K_CONTINUE) != kept) { "the new game is kept once played" }
        }
        GameFixture(store).use { f ->
            check(f.ui.call { f.c.continueGame(Settings()) })
            eq(GameKind.CHESS, f.awaitTurn(2).kind)
        }
    }

    s.test("a game to continue saved by a newer Banco is kept (update the app); a damaged one is dropped") {
        val store = MemoryStore()
        val newer = Game(GameKind.XIANGQI).use { it.save() }.also { it[8] = 200.toByte() }
        val text = Base64.getEncoder().encodeToString(newer)
        store.putString(GameController.K_CONTINUE, text)
        GameFixture(store).use { f ->
            check(!f.ui.call { f.c.continueGame(Settings()) })
            val m = f.state().message
            check(m != null && m.contains("update the app")) { "$m" }
            check(f.ui.call { f.c.canContinue() }) { "still offered to continue" }
            eq(text, store.getString(GameController.K_CONTINUE), "the newer game is kept as it was")
            // A new game left before its first move does not replace it either.
            check(f.ui.call { f.c.newGame(Settings(level = 1)) })
            f.awaitTurn(0)
            eq(text, store.getString(GameController.K_CONTINUE))
            // Played: the newer game is still not written over (Rust's kept-record policy).
            f.tapScripted("h2", "e2")
            f.awaitTurn(2)
            eq(text, store.getString(GameController.K_CONTINUE), "a newer Banco's game is never written over")
        }
    }

    s.test("levels outside 1–10 are refused by Rust, with its message") {
        GameFixture().use { f ->
            for (level in listOf(0, 11, -1, 300)) {
                check(!f.ui.call { f.c.newGame(Settings(level = level)) })
                val m = f.state().message
                check(m?.contains("does not exist") == true) { "level $level: $m" }
                eq(null, f.state().vs)
            }
            check(f.ui.call { f.c.newGame(Settings(level = 10)) })
            eq(null, f.state().message)
        }
    }

    s.test("the level changed in a game: played from then on, kept with the game; out of range refused") {
        val store = MemoryStore()
        GameFixture(store).use { f ->
            check(f.ui.call { f.c.newGame(Settings(level = 1)) })
            f.awaitTurn(0)
            f.tapScripted("h2", "e2")
            f.awaitTurn(2)
            f.ui.call { f.c.setLevel(4) }
            eq(4, f.await("level 4") { it.level.toInt() == 4 }.level.toInt())
            for (level in listOf(0, 11, -1, 300)) {
                f.ui.call { f.c.setLevel(level) }
                check(f.state().message?.contains("does not exist") == true) { "level $level: ${f.state().message}" }
                f.ui.call { f.c.clearMessage() }
            }
            eq(4, f.vs().level.toInt())
        }
        // The game to continue has the new level, whatever the settings say.
        GameFixture(store).use { f ->
            check(f.ui.call { f.c.continueGame(Settings(level = 1)) })
            eq(4, f.awaitTurn(2).level.toInt())
        }
    }

    s.test("the move list is numbered by Rust from the position: Black first from move 7") {
        GameFixture().use { f ->
            val fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7"
            check(f.ui.call { f.c.newGame(Settings(game = GameKind.CHESS, level = 1, color = Color.BLACK), fen = fen) })
            eq(emptyList<String>(), f.awaitTurn(0).moveList)
            f.tap("e8")
            f.tap("d8")
            val st = f.awaitTurn(2)
            eq(2, st.moveList.size, "lines")
            check(st.moveList[0] == "7... Kd8" && st.moveList[1].startsWith("8. ")) { "${st.moveList}" }
        }
    }

    s.test("puzzles: each built-in one starts; the first is mated by taps; no continue record") {
        GameFixture().use { f ->
            for (p in builtinPuzzles()) {
                check(f.ui.call { f.c.startPuzzle(p, Settings()) }) { "${p.name}: ${f.state().message}" }
                val st = f.await("${p.name} on screen") { it.puzzle?.name == p.name && it.yourTurn }
                eq(p.mateIn, st.puzzle!!.movesLeft)
            }
            val first = builtinPuzzles().first { it.fen == XQ_MATE_IN_ONE }
            f.ui.call { f.c.startPuzzle(first, Settings()) }
            f.await("the puzzle") { it.puzzle?.name == first.name && it.yourTurn }
            f.tap("e1")
            f.tap("d1")
            val solved = f.await("solved") { it.puzzle?.solved == true }
            eq("You won: checkmate", solved.result)
            check(!f.ui.call { f.c.canContinue() }) { "puzzles do not replace the game to continue" }
        }
    }

    s.test("chess vs the computer by taps: a legal answer, castling, resign") {
        GameFixture().use { f ->
            check(f.ui.call { f.c.newGame(Settings(game = GameKind.CHESS, level = 1)) })
            var st = f.awaitTurn(0)
            eq(GameKind.CHESS, st.kind)
            eq(64, st.board.cells.size)
            check(st.board.cellNamed("a1")!!.dark)
            eq(TapResult.Selected(12u), f.tap("e2"))
            eq(TapResult.Moved(org.banco.Move(12u, 28u, null)), f.tap("e4"))
            st = f.awaitTurn(2)
            eq("e4", st.moves[0])
            val reply = st.lastMove!!
            eq(Color.BLACK, reply.by)
            Game(GameKind.CHESS).use { g -> g.playText("e4", null); check(g.isLegal(reply.played)) { "$reply" } }
            for (n in 2..6) {
                f.tapScripted("g1", "f3")
                st = f.awaitTurn(2 * n)
                if (st.outcome != null) break
            }
            f.ui.call { f.c.claimDraw() }
            check(f.state().message?.contains("no draw to claim") == true) { "${f.state().message}" }
            f.ui.call { f.c.resign() }
            val over = f.await("resigned") { it.outcome != null }
            eq("You lost: resignation", over.result)
            check(!f.ui.call { f.c.canContinue() })
        }
        GameFixture().use { f ->
            f.ui.call { f.c.newGame(Settings(game = GameKind.CHESS, level = 1), fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1") }
            f.awaitTurn(0)
            f.tap("e1")
            f.tap("g1")
            val castled = f.awaitTurn(2)
            eq("O-O", castled.moves[0])
            eq(PieceKind.ROOK, castled.board.cellNamed("f1")?.piece?.kind)
        }
    }

    s.test("chess: a draw claimed with the player's move (FIDE 9.2.1.1), undone; a claim that brings no draw refused") {
        // White's rook and king against the king, 99 plies without a capture or a pawn move:
        // the hundredth completes the fifty moves, and a claim may be made with it.
        val fifty = "8/8/4k3/8/8/3RK3/8/8 w - - 99 80"
        var rd1: org.banco.ClaimableMove
        GameFixture().use { f ->
            check(f.ui.call { f.c.newGame(Settings(game = GameKind.CHESS, level = 1, color = Color.RED), fen = fifty) })
            val st = f.awaitTurn(0)
            eq(null, st.claimableDraw, "no draw to claim before the move")
            val claims = f.ui.call { f.c.state.value.claimableWith }
            rd1 = claims.single { it.mv.text == "Rd1" }
            eq(DrawReason.FiftyMoveRule, rd1.reason)
            f.ui.call { f.c.claimDrawWith(rd1) }
            val over = f.await("the claim") { it.outcome != null }
            eq(Outcome.Draw(DrawReason.FiftyMoveRule), over.outcome)
            eq(Color.RED, over.drawClaimedBy, "the player claimed")
            eq(listOf("Rd1"), over.moves)
            check(f.ui.call { f.c.state.value.claimableWith }.isEmpty()) { "nothing to claim after the end" }
            check(!f.ui.call { f.c.canContinue() }) { "a finished game is not kept to continue" }
            // Undo takes back the claim and its move.
            f.ui.call { f.c.undo() }
            val back = f.await("the claim undone") { it.outcome == null && it.moves.isEmpty() }
            check(back.yourTurn && back.claimableWith.any { it.mv.text == "Rd1" }) { "$back" }
        }
        GameFixture().use { f ->
            // Two plies earlier Rd1 completes nothing: the claim is refused, nothing played.
            check(f.ui.call { f.c.newGame(Settings(game = GameKind.CHESS, level = 1, color = Color.RED), fen = fifty.replace(" 99 ", " 97 ")) })
            val st = f.awaitTurn(0)
            check(st.claimableWith.isEmpty()) { "${st.claimableWith}" }
            f.ui.call { f.c.claimDrawWith(rd1) }
            check(f.state().message?.startsWith("there is no draw to claim with Rd1") == true) { "${f.state().message}" }
            eq(null, f.vs().outcome)
            eq(emptyList<String>(), f.vs().moves)
        }
    }

    s.test("chess: a promotion through the picker, undo, continue from the saved bytes") {
        val store = MemoryStore()
        val fen = "k7/4P3/8/8/8/8/P7/K7 w - - 0 1"
        GameFixture(store).use { f ->
            f.ui.call { f.c.newGame(Settings(game = GameKind.CHESS, level = 1), fen = fen) }
            f.awaitTurn(0)
            f.tap("e7")
            val ask = f.tap("e8")
            check(ask is TapResult.ChoosePromotion) { "$ask" }
            // The picker is part of Rust's board state.
            val picker = f.await("the picker") { it.board.promotion != null }.board.promotion!!
            eq(picker, f.state().promotion)
            eq(setOf(PieceKind.QUEEN, PieceKind.ROOK, PieceKind.BISHOP, PieceKind.KNIGHT), picker.choices.toSet())
            // Dismissed: nothing is played; then again, and a knight is chosen.
            f.ui.call { f.c.cancelPromotion() }
            f.await("the pawn deselected") { s -> s.board.promotion == null && s.board.cells.none { it.selected || it.target } }
            eq(null, f.state().promotion)
            eq(0, f.vs().moves.size)
            f.tap("e7")
            f.tap("e8")
            f.await("the picker again") { it.board.promotion != null }
            f.ui.call { f.c.choosePromotion(PieceKind.KNIGHT) }
            val promoted = f.awaitTurn(2)
            eq(null, f.state().promotion)
            eq("e8=N", promoted.moves[0])
            eq("♘", promoted.board.cellNamed("e8")?.piece?.glyph)
            f.ui.call { f.c.undo() }
            val back = f.await("undone") { it.moves.isEmpty() }
            eq(PieceKind.PAWN, back.board.cellNamed("e7")?.piece?.kind)
            check(back.canRedo)
            f.tap("e7")
            f.tap("e8")
            f.ui.call { f.c.choosePromotion(PieceKind.QUEEN) }
            f.awaitTurn(2)
        }
        val saved: VsState
        GameFixture(store).use { f ->
            check(f.ui.call { f.c.continueGame(Settings()) })
            saved = f.awaitTurn(2)
            eq(GameKind.CHESS, saved.kind)
            eq("e8=Q+", saved.moves[0])
            eq(PieceKind.QUEEN, saved.board.cellNamed("e8")?.piece?.kind)
            f.ui.call { f.c.undo() }
            f.await("undone") { it.moves.isEmpty() && it.canRedo }
            f.ui.call { f.c.redo() }
            eq(saved.fen, f.awaitTurn(2).fen)
        }
    }
}
