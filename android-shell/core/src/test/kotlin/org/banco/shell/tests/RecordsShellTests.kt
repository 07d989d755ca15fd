// Issue 18 on the Android shell's controllers: the position editor (place, remove, the live
// problems, solve from here, play from here), a puzzle of the collection solved through the
// controller (a wrong move taken back, a hint, the computer's defence, progress kept in the
// key-value store), and sharing (a game out as PGN and opened again with the same moves, a
// bad record named by its move, pictures of the position).
package org.banco.shell.tests

import org.banco.Color
import org.banco.EditorTap
import org.banco.Game
import org.banco.GameKind
import org.banco.Piece
import org.banco.PieceKind
import org.banco.PuzzleNotice
import org.banco.PuzzleRecord
import org.banco.PuzzleTier
import org.banco.collectionPuzzles
import org.banco.shell.EditorController
import org.banco.shell.GameController
import org.banco.shell.GameShare
import org.banco.shell.MemoryStore
import org.banco.shell.PuzzleController
import org.banco.shell.Settings
import org.banco.shell.words
import java.time.LocalDate

/** The palette's piece of [color] and [kind]. */
fun EditorController.piece(color: Color, kind: PieceKind): Piece =
    state.value.view!!.palette.single { it.color == color && it.kind == kind && !it.faceDown }

/** The palette's face-down jieqi piece of [color]. */
fun EditorController.faceDown(color: Color): Piece =
    state.value.view!!.palette.single { it.color == color && it.faceDown }

/** True if [bytes] start like a PNG file. */
fun isPng(bytes: ByteArray): Boolean =
    bytes.size > 8 && bytes.take(4).map { it.toInt() and 0xff } == listOf(0x89, 'P'.code, 'N'.code, 'G'.code)

/** Plays [coordinate] ("e1d1") by tapping its two squares. */
fun GameFixture.tapMove(coordinate: String) {
    tap(coordinate.substring(0, 2))
    tap(coordinate.substring(2))
}

fun recordsShellTests(s: Suite) {
    s.test("editor: place and remove, live problems, solve from here, play from here") {
        GameFixture().use { f ->
            val ed = EditorController(f.ui)
            // The games to set up are Rust's: each listed one opens on its start, the others are refused.
            eq(listOf(GameKind.XIANGQI, GameKind.CHESS, GameKind.JIEQI), EditorController.games())
            for (k in GameKind.entries) {
                eq(k in EditorController.games(), f.ui.call { ed.open(k) }, "editor of $k")
                if (k in EditorController.games()) eq(k, f.ui.call { ed.state.value.view!!.kind })
            }
            f.ui.call { ed.clearMessage() }
            f.ui.call { check(ed.open(GameKind.XIANGQI, EditorController.From.EMPTY)) }
            var st = f.ui.call { ed.state.value }
            eq(90, st.view!!.cells.size)
            check(!st.playable && st.view!!.problems.isNotEmpty()) { "an empty board has no kings" }
            // The red king by a tap with the brush at the bottom centre (e0), the rest by name.
            f.ui.call { ed.chooseBrush(ed.piece(Color.RED, PieceKind.KING)) }
            eq(EditorTap.Placed(4u), f.ui.call { ed.tap(4, 9) })
            f.ui.call {
                ed.place("d9", ed.piece(Color.BLACK, PieceKind.KING))
                ed.place("e1", ed.piece(Color.RED, PieceKind.ROOK))
            }
            st = f.ui.call { ed.state.value }
            check(st.playable) { "${st.view!!.problems}" }
            eq(XQ_MATE_IN_ONE, st.view!!.fen)
            // An advisor outside its palace: a problem on its square; play from here refused.
            f.ui.call { ed.place("a0", ed.piece(Color.RED, PieceKind.ADVISOR)) }
            st = f.ui.call { ed.state.value }
            check(!st.playable && st.view!!.cells.single { it.name == "a0" }.problem) { "${st.view!!.problems}" }
            check(!f.ui.call { ed.playFromHere(f.c, Settings(level = 1)) })
            check(f.ui.call { ed.state.value.message }?.contains("advisor") == true) { "${ed.state.value.message}" }
            f.ui.call { ed.clearMessage(); ed.remove("a0") }
            check(f.ui.call { ed.state.value.playable })
            // A piece of another game is refused with a reason, the board unchanged.
            f.ui.call { ed.place("a1", Piece(Color.RED, PieceKind.QUEEN, "Q", "♕", "queen", false)) }
            eq(XQ_MATE_IN_ONE, f.ui.call { ed.state.value.view!!.fen })
            check(f.ui.call { ed.state.value.message } != null)
            f.ui.call { ed.clearMessage(); ed.solve(3) }
            val solved = f.ui.await(ed.state, "a solution") { it.solution != null }
            eq(1u, solved.solution!!.mate)
            eq(listOf("e1d1"), solved.solution!!.line)
            check(!solved.solving)
            val picture = f.ui.call { ed.picture(1f) }!!
            check(isPng(picture.png) && picture.svg.contains(">帥</text>")) { picture.svg.take(200) }
            // Play from here: the player takes the side to move; mate in one by taps.
            check(f.ui.call { ed.playFromHere(f.c, Settings(level = 1, color = Color.BLACK)) })
            val first = f.awaitTurn(0)
            eq(XQ_MATE_IN_ONE, first.fen)
            eq(Color.RED, first.human)
            f.tapMove("e1d1")
            eq("You won: checkmate", f.await("mate") { it.result != null }.result)
        }
    }

    s.test("editor: a jieqi position with face-down pieces, its pools, played from here") {
        GameFixture().use { f ->
            val ed = EditorController(f.ui)
            f.ui.call { check(ed.open(GameKind.JIEQI, EditorController.From.EMPTY)) }
            f.ui.call {
                ed.place("e0", ed.piece(Color.RED, PieceKind.KING))
                ed.place("d9", ed.piece(Color.BLACK, PieceKind.KING))
                // Red's face-down piece by a tap on a0 (bottom left), Black's by name on b7.
                ed.chooseBrush(ed.faceDown(Color.RED))
            }
            eq(EditorTap.Placed(0u), f.ui.call { ed.tap(0, 9) })
            f.ui.call { ed.place("b7", ed.faceDown(Color.BLACK)) }
            var st = f.ui.call { ed.state.value }
            check(st.playable) { "${st.view!!.problems}" }
            val a0 = st.view!!.cells.single { it.name == "a0" }.piece!!
            check(a0.faceDown && a0.kind == PieceKind.ROOK) { "$a0" }
            eq("3k5/9/1x7/9/9/9/9/9/9/X3K4 w R2A2C2P5N2B2r2a2c2p5n2b2 0 1", st.view!!.fen)
            eq(listOf(15u, 15u), st.view!!.pools.map { it.total })
            // Off its home squares a face-down piece is a problem on its square.
            f.ui.call { ed.place("e5", ed.faceDown(Color.RED)) }
            st = f.ui.call { ed.state.value }
            check(!st.playable && st.view!!.cells.single { it.name == "e5" }.problem) { "${st.view!!.problems}" }
            f.ui.call { ed.remove("e5") }
            // Solve is refused for jieqi, with Rust's reason.
            f.ui.call { ed.solve(3) }
            val refused = f.ui.await(ed.state, "a refusal") { !it.solving && it.message != null }
            check(refused.message!!.contains("no mate solver")) { "${refused.message}" }
            f.ui.call { ed.clearMessage() }
            check(f.ui.call { ed.playFromHere(f.c, Settings(level = 1)) })
            eq("3k5/9/1x7/9/9/9/9/9/9/X3K4 w R2A2C2P5N2B2r2a2c2p5n2b2 0 1", f.awaitTurn(0).fen)
        }
    }

    s.test("editor: jieqi pieces captured face up, counted with − and +, the pools follow, played from here") {
        GameFixture().use { f ->
            val ed = EditorController(f.ui)
            f.ui.call { check(ed.open(GameKind.JIEQI, EditorController.From.EMPTY)) }
            f.ui.call {
                ed.place("e0", ed.piece(Color.RED, PieceKind.KING))
                ed.place("d9", ed.piece(Color.BLACK, PieceKind.KING))
                ed.place("a0", ed.faceDown(Color.RED))
            }
            var st = f.ui.call { ed.state.value }
            eq("Red: 15 hidden", st.pool(Color.RED)!!.title)
            eq(15 to 1, st.pool(Color.RED)!!.total to st.pool(Color.RED)!!.faceDown)
            // A counter per kind but the king for each side, at zero.
            eq(listOf("advisor", "elephant", "horse", "rook", "cannon", "pawn"), st.captured(Color.RED).map { it.piece.name })
            check(st.captured(Color.BLACK).all { it.piece.color == Color.BLACK && it.count.toInt() == 0 }) { "${st.captured(Color.BLACK)}" }
            // + on Red's rook: one rook fewer in Red's pool; − at zero does nothing.
            val rook = { x: EditorController.State -> x.captured(Color.RED).single { it.piece.kind == PieceKind.ROOK } }
            f.ui.call { ed.changeCaptured(rook(ed.state.value), 1) }
            st = f.ui.call { ed.state.value }
            eq(1, rook(st).count.toInt())
            eq("Red: 14 hidden", st.pool(Color.RED)!!.title)
            eq(1, st.pool(Color.RED)!!.items.single { it.name == "rook" }.count)
            eq(15, st.pool(Color.BLACK)!!.total, "Black's pool is untouched")
            val advisor = st.captured(Color.RED).first()
            f.ui.call { ed.changeCaptured(advisor, -1) }
            eq(st, f.ui.call { ed.state.value }, "nothing below zero")
            // Every red piece but one rook captured face up: the pool keeps that rook.
            f.ui.call {
                for (kind in listOf(PieceKind.ADVISOR, PieceKind.ELEPHANT, PieceKind.HORSE, PieceKind.CANNON, PieceKind.PAWN)) {
                    val max = ed.state.value.captured(Color.RED).single { it.piece.kind == kind }.max.toInt()
                    ed.setCaptured(Color.RED, kind, max)
                }
            }
            st = f.ui.call { ed.state.value }
            eq(1, st.pool(Color.RED)!!.total)
            check(st.playable) { "${st.view!!.problems}" }
            // + beyond what a side has is Rust's refusal, the count unchanged.
            val pawns = st.captured(Color.RED).single { it.piece.kind == PieceKind.PAWN }
            eq(5, pawns.count.toInt())
            f.ui.call { ed.changeCaptured(pawns, 1) }
            check(f.ui.call { ed.state.value.message } != null) { "six pawns refused" }
            eq(st.view, f.ui.call { ed.state.value.view })
            f.ui.call { ed.clearMessage() }
            // A second face-down piece is one more than the pool holds: a problem until one is uncaptured.
            f.ui.call { ed.place("b0", ed.faceDown(Color.RED)) }
            check(!f.ui.call { ed.state.value.playable })
            f.ui.call { ed.changeCaptured(rook(ed.state.value), -1) }
            st = f.ui.call { ed.state.value }
            check(st.playable) { "${st.view!!.problems}" }
            eq(2 to 2, st.pool(Color.RED)!!.total to st.pool(Color.RED)!!.faceDown)
            check(f.ui.call { ed.playFromHere(f.c, Settings(level = 1)) })
            eq("3k5/9/9/9/9/9/9/9/9/XX2K4 w R2A0C0P0N0B0r2a2c2p5n2b2 0 1", f.awaitTurn(0).fen)
        }
    }

    s.test("puzzles: a wrong move taken back, solved through the controller, progress kept") {
        val store = MemoryStore()
        GameFixture(store, movetimeMs = 100).use { f ->
            val pc = PuzzleController(f.c, store)
            val tiers = f.ui.call { pc.tiers() }
            eq(PuzzleTier.MATE_IN1, tiers.first().info.tier)
            check(tiers.sumOf { it.info.count.toInt() } >= 200 && tiers.all { it.solved == 0 }) { "$tiers" }
            val p = collectionPuzzles(PuzzleTier.MATE_IN1).first()
            check(f.ui.call { pc.start(p.id, Settings()) })
            val start = f.awaitTurn(0)
            eq(p.puzzle.fen, start.fen)
            // A move that does not mate: played, answered, then taken back with a word.
            val wrong = Game.fromFen(GameKind.XIANGQI, p.puzzle.fen).use { g ->
                g.legalMoves().map { m -> g.moveText(m, org.banco.Notation.COORDINATE) }.first { c ->
                    g.copy().use { t -> t.playText(c, null); t.status().outcome == null }
                }
            }
            f.tapMove(wrong)
            // Rust takes it back with the reply, counts it and says so (a typed notice).
            val back = f.ui.await(pc.state, "the wrong move taken back") { it.notice is PuzzleNotice.WrongMoveTakenBack }
            val taken = back.notice as PuzzleNotice.WrongMoveTakenBack
            eq(wrong, taken.played.coordinate)
            check(taken.reply != null && back.notice!!.words().startsWith("Not that move")) { "${back.notice}" }
            val again = f.await("the puzzle's start again") { it.moves.isEmpty() && it.yourTurn }
            eq(1u, again.puzzle!!.wrongMoves)
            check(!again.puzzle!!.solved && !again.canRedo)
            f.ui.call { pc.clearMessage() }
            check(f.await("the notice cleared in Rust") { it.puzzle?.notice == null }.puzzle!!.wrongMoves == 1u)
            eq(null, f.ui.call { pc.state.value.notice })
            f.ui.call { pc.hint() }
            val hinted = f.await("a hint") { it.hint != null }
            eq(p.solution.first(), hinted.hint!!.coordinate)
            eq(1u, hinted.puzzle!!.hintsUsed)
            f.tapMove(p.solution.first())
            check(f.await("mate") { it.outcome != null }.puzzle!!.solved)
            val solved = f.ui.await(pc.state, "solved") { it.notice is PuzzleNotice.Solved }
            eq(PuzzleNotice.Solved(1u, 1u), solved.notice)
            check(solved.notice!!.words().startsWith("Solved")) { "${solved.notice}" }
            check(store.getString(PuzzleController.K_PROGRESS) != null)
            // A puzzle that does not exist: refused, nothing recorded.
            check(!f.ui.call { pc.start("no such puzzle", Settings()) })
            check(f.ui.call { pc.state.value.message }?.contains("no such puzzle") == true)
            eq(PuzzleRecord(false, 0u, 0u), f.ui.call { pc.record("no such puzzle") })
        }
        // A new screen (the app started again) reads the same store.
        GameFixture(store, movetimeMs = 100).use { f ->
            val pc = PuzzleController(f.c, store)
            val p = collectionPuzzles(PuzzleTier.MATE_IN1).first()
            val r = f.ui.call { pc.record(p.id) }
            check(r.solved && r.attempts == 1u && r.hints == 1u) { "$r" }
            eq(1, f.ui.call { pc.tiers() }.first().solved)
            check(f.ui.call { pc.puzzles(PuzzleTier.MATE_IN1) }.first().second.solved)
            // The next unsolved puzzle is another; a mate in two against the longest defence.
            val two = collectionPuzzles(PuzzleTier.MATE_IN2).first()
            check(f.ui.call { pc.start(two.id, Settings()) })
            f.awaitTurn(0)
            f.tapMove(two.solution.first())
            f.awaitTurn(2)
            f.ui.call { pc.hint() }
            val hint = f.await("the mating move") { it.hint != null }.hint!!.coordinate
            f.tapMove(hint)
            check(f.await("mate in two") { it.outcome != null }.puzzle!!.solved)
            f.ui.await(pc.state, "recorded") { it.notice is PuzzleNotice.Solved }
            eq(2, f.ui.call { pc.tiers() }.take(2).sumOf { it.solved })
        }
        // A damaged record starts afresh and says so.
        val bad = MemoryStore().apply { putString(PuzzleController.K_PROGRESS, "not base64!") }
        GameFixture(bad).use { f ->
            val pc = PuzzleController(f.c, bad)
            val notice = f.ui.call { pc.state.value.notice }
            check(notice is PuzzleNotice.RecordDamaged && notice.words().contains("afresh")) { "$notice" }
            check(f.ui.call { pc.tiers() }.all { it.solved == 0 })
            eq("not base64!", bad.getString(PuzzleController.K_PROGRESS_DAMAGED), "set aside before the first change")
            // A try changes the record: the damaged bytes stay aside.
            check(f.ui.call { pc.start(pc.puzzles(pc.tiers().first().info.tier).first().first.id, Settings()) })
            f.ui.await(f.c.state, "the try") { it.vs?.puzzle != null }
            f.ui.await(f.c.state, "the try recorded") { bad.getString(PuzzleController.K_PROGRESS) != "not base64!" }
            eq("not base64!", bad.getString(PuzzleController.K_PROGRESS_DAMAGED))
        }
    }

    s.test("puzzles: chess is reachable; Next puzzle stays in its game and keeps the game to continue") {
        val store = MemoryStore()
        GameFixture(store, movetimeMs = 100).use { f ->
            val pc = PuzzleController(f.c, store)
            // A game of xiangqi to continue, which a puzzle must not replace.
            check(f.ui.call { f.c.newGame(Settings(level = 1, sound = false)) })
            f.awaitTurn(0)
            f.tapScripted("h2", "e2")
            f.awaitTurn(2)
            val kept = store.getString(GameController.K_CONTINUE)
            check(kept != null)
            eq(listOf(GameKind.XIANGQI, GameKind.CHESS), f.ui.call { pc.games() })
            val tiers = f.ui.call { pc.tiers(GameKind.CHESS) }
            check(tiers.isNotEmpty() && tiers.all { it.solved == 0 }) { "$tiers" }
            val list = f.ui.call { pc.puzzles(tiers.first().info.tier, GameKind.CHESS) }
            check(list.all { it.first.puzzle.kind == GameKind.CHESS }) { "${list.map { it.first.id }}" }
            val p = list.map { it.first }.first { it.solution.first().length == 4 }
            check(f.ui.call { pc.start(p.id, Settings()) })
            eq(GameKind.CHESS, f.awaitTurn(0).kind)
            check(f.ui.call { pc.playing })
            f.tapMove(p.solution.first())
            check(f.await("mate") { it.outcome != null }.puzzle!!.solved)
            f.ui.await(pc.state, "solved") { it.notice is PuzzleNotice.Solved }
            // Next puzzle: the first unsolved chess puzzle, not the solved one, not xiangqi.
            check(f.ui.call { pc.next(Settings()) })
            val next = f.ui.call { pc.state.value.current }!!
            check(next.id != p.id && next.puzzle.kind == GameKind.CHESS) { next.id }
            eq(GameKind.CHESS, f.awaitTurn(0).kind)
            eq(kept, store.getString(GameController.K_CONTINUE), "the game to continue")
            eq(1, f.ui.call { pc.tiers(GameKind.CHESS) }.sumOf { it.solved })
            eq(0, f.ui.call { pc.tiers() }.sumOf { it.solved })
        }
    }

    s.test("share: a game out as PGN and opened again gives the same moves, side and level; pictures") {
        val date = LocalDate.of(2026, 12, 2)
        GameFixture().use { f ->
            f.ui.call { f.c.newGame(Settings(level = 1, sound = false)) }
            f.awaitTurn(0)
            f.tapScripted("h2", "e2")
            f.awaitTurn(2)
            f.tapScripted("h0", "g2")
            val played = f.awaitTurn(4)
            val pgn = GameShare.pgn(f.ui.call { f.c.saved() }!!, played, "Alice", date)
            val tags = listOf(
                "[Red \"Alice\"]", "[Black \"Banco level 1\"]", "[Human \"Red\"]", "[Level \"1\"]", "[Date \"2026.12.02\"]",
            )
            for (tag in tags) check(pgn.contains(tag)) { "$tag in $pgn" }
            eq("banco-xiangqi-2026-12-02.pgn", GameShare.fileName(GameKind.XIANGQI, date))
            val opened = GameShare.open(pgn).getOrThrow()
            eq(4, opened.plies)
            eq(Color.RED, opened.sideToMove)
            // Settings that say Black at level 7: the record's side and level go on.
            check(f.ui.call { f.c.openSaved(opened.saved, Settings(level = 7, color = Color.BLACK)) })
            val first = f.await("the game opened") { it.moves.size >= 4 }
            eq(Color.RED, first.human, "the player's side from the record")
            eq(1, first.level.toInt(), "the computer's level from the record")
            val reopened = f.awaitTurn(4)
            eq(played.moves, reopened.moves)
            eq(played.fen, reopened.fen)
            // The picture of the position on screen: every piece, the last move marked.
            val pic = GameShare.picture(reopened, 1f)
            check(isPng(pic.png))
            eq(reopened.board.cells.count { it.piece != null }, Regex("class=\"piece ").findAll(pic.svg).count())
            check(pic.svg.contains("class=\"last-move\"")) { "the last move is marked" }
        }
        val bad = GameShare.open("1. e4 e5 2. Ke3 Nc6 *")
        val why = bad.exceptionOrNull()?.message ?: ""
        check(why.contains("move 2 (White) `Ke3`")) { why }
        check(GameShare.open("").isFailure)
        // A chess record from elsewhere opens with Black to move.
        val chess = GameShare.open("[Event \"Club\"]\n\n1. e4 e5 2. Nf3 *").getOrThrow()
        eq(GameKind.CHESS, chess.kind)
        eq(3, chess.plies)
        eq(Color.BLACK, chess.sideToMove)
    }
}
