// The board's geometry on screen (cells under a finger, xiangqi lines), Rust's BoardView read
// by name and position, settings in the store, and the sound cues.
package org.banco.shell.tests

import org.banco.BoardLine
import org.banco.Color
import org.banco.GameKind
import org.banco.PlayedMove
import org.banco.RepetitionRule
import org.banco.Rules
import org.banco.VsComputer
import org.banco.VsListener
import org.banco.VsState
import org.banco.shell.BoardLayout
import org.banco.shell.MemoryStore
import org.banco.shell.Settings
import org.banco.shell.Sound
import org.banco.shell.cellAt
import org.banco.shell.cellNamed
import org.banco.shell.computerLevels
import org.banco.shell.offeredPresets
import org.banco.rulesPreset

/** A ready-to-draw board of [kind] straight from Rust. */
fun startBoard(kind: GameKind, human: Color = Color.RED): org.banco.BoardView =
    VsComputer(Settings(game = kind, color = human, level = 1).vsSettings(50), object : VsListener {
        override fun onState(state: VsState) {}
    }).use { vs -> vs.state().board.also { vs.end() } }

fun boardTests(s: Suite) {
    s.test("board layout: cells under a finger, centres, margins, xiangqi lines") {
        val xq = BoardLayout(9, 10, 900f, 1000f)
        eq(100f, xq.cell)
        eq(50f to 50f, xq.x(0) to xq.y(0))
        for (c in 0..8) for (r in 0..9) {
            eq(c to r, xq.cellAt(xq.x(c), xq.y(r)), "centre of $c,$r")
            eq(c to r, xq.cellAt(xq.x(c) + 49f, xq.y(r) - 49f), "near the edge of $c,$r")
        }
        eq(null, xq.cellAt(-1f, 10f))
        eq(null, xq.cellAt(900f, 10f))
        eq(null, xq.cellAt(10f, 1000f))
        // A wide view centres an 8×8 board.
        val chess = BoardLayout(8, 8, 1000f, 800f)
        eq(100f to 100f, chess.cell to chess.left)
        eq(0f, chess.top)
        eq(null, chess.cellAt(50f, 50f), "left margin")
        eq(0 to 0, chess.cellAt(150f, 50f))
        eq(7 to 7, chess.cellAt(899f, 799f))
        eq(null, BoardLayout(8, 8, 0f, 0f).cellAt(0f, 0f), "not laid out yet")
    }

    s.test("board layout: the river where Rust puts it (riverAfterRow), either way up; none in chess") {
        for (human in listOf(Color.RED, Color.BLACK)) {
            val board = startBoard(GameKind.XIANGQI, human)
            eq(4, board.riverAfterRow?.toInt(), "the river below the fifth row, $human below")
            // 9×10 cells of 100 in a view 1000 high and 1100 wide: the river's middle halfway
            // between the centres of rows 4 and 5.
            val l = BoardLayout(board, 1100f, 1000f)
            eq((l.y(4) + l.y(5)) / 2, l.riverY)
            eq(500f, l.riverY)
        }
        val jieqi = startBoard(GameKind.JIEQI)
        eq(4, jieqi.riverAfterRow?.toInt())
        val chess = startBoard(GameKind.CHESS)
        eq(null, chess.riverAfterRow)
        eq(null, BoardLayout(chess, 800f, 800f).riverY, "chess has no river")
    }

    s.test("Rust's board view: cells by name and position, both games, both ways up") {
        val xq = startBoard(GameKind.XIANGQI)
        check(xq.onLines)
        // Rust draws the river and the palaces; the shell only strokes the lines.
        val lines = xq.lines
        eq(10 + 2 + 7 * 2 + 4, lines.size)
        check(lines.none { it.fromColumn.toInt() in 1..7 && it.fromColumn == it.toColumn && it.fromRow <= 4u && it.toRow >= 5u }) {
            "inner files stop at the river"
        }
        check(BoardLine(3u, 0u, 5u, 2u) in lines && BoardLine(5u, 7u, 3u, 9u) in lines) { "palaces" }
        eq(9 to 10, xq.width.toInt() to xq.height.toInt())
        val h2 = xq.cellNamed("h2")!!
        eq(7 to 7, h2.column.toInt() to h2.row.toInt())
        eq("炮", h2.piece?.glyph)
        eq(h2, xq.cellAt(7, 7))
        eq(null, xq.cellAt(9, 0))
        eq("將", xq.cellNamed("e9")?.piece?.glyph)
        val flipped = startBoard(GameKind.XIANGQI, Color.BLACK)
        check(flipped.flipped)
        eq(1 to 2, flipped.cellNamed("h2")!!.let { it.column.toInt() to it.row.toInt() })
        val chess = startBoard(GameKind.CHESS)
        check(!chess.onLines && chess.lines.isEmpty())
        eq(0 to 7, chess.cellNamed("a1")!!.let { it.column.toInt() to it.row.toInt() })
        check(chess.cellNamed("a1")!!.dark && !chess.cellNamed("b1")!!.dark)
        eq("♕", chess.cellNamed("d1")?.piece?.glyph)
        eq(null, chess.cellNamed("i1"))
    }

    s.test("settings: saved, loaded; damaged or out-of-range values fall back to defaults") {
        val store = MemoryStore()
        eq(Settings(), Settings.load(store), "defaults")
        // The defaults are Rust's (defaultSettings), the values both phones had written each.
        val d = Settings()
        eq(listOf<Any>(GameKind.XIANGQI, 3, Color.RED, "asian", "Player", 5, 5),
            listOf<Any>(d.game, d.level, d.color, d.rules, d.playerName, d.raceStartBalls, d.raceMinutes))
        eq(org.banco.RaceSettings(5u, 300u, false), d.raceSettings())
        val mine = Settings(game = GameKind.CHESS, level = 7, color = Color.BLACK, rules = "casual", sound = false, playerName = "Lan", linesPreview = true,
            raceStartBalls = 3, raceMinutes = 10)
        mine.save(store)
        eq(mine, Settings.load(store))
        // The race a host proposes comes from them (it was a fixed 5 balls, 5 minutes, no preview).
        eq(org.banco.RaceSettings(3u, 600u, true), mine.raceSettings())
        // The race time limits a screen offers are Rust's, with Rust's labels.
        eq(listOf(2, 5, 10, 30, 60), Settings.RACE_MINUTES)
        eq(listOf("2 min", "5 min", "10 min", "30 min", "60 min"), Settings.RACE_MINUTES.map { Settings.raceMinutesLabel(it) })
        eq(RepetitionRule.CASUAL, (Settings.load(store).rulesFor(GameKind.XIANGQI) as Rules.Xiangqi).repetition)
        eq(null, mine.rulesFor(GameKind.CHESS), "chess has its usual rules")
        eq(rulesPreset(GameKind.XIANGQI, "casual"), mine.rulesFor(GameKind.XIANGQI))
        // Jieqi gets the preset too (it used to get the default rules whatever was chosen).
        eq(RepetitionRule.CASUAL, (mine.rulesFor(GameKind.JIEQI) as Rules.Jieqi).repetition)
        eq(Rules.Jieqi::class, mine.copy(game = GameKind.JIEQI).vsSettings(1).rules!!::class)
        // Rust's presets and levels.
        eq(listOf("asian", "casual"), offeredPresets().map { it.name })
        eq(1..10, computerLevels)
        store.putString("settings.rules", "CASUAL")
        eq("casual", Settings.load(store).rules, "an older app's stored name")
        mine.save(store)
        val vs = mine.vsSettings(250)
        eq(GameKind.CHESS to Color.BLACK, vs.kind to vs.human)
        eq(7, vs.level.toInt())
        eq(250uL, vs.movetimeMs)
        eq(null, vs.rules)
        eq(0, Settings(level = -5).vsSettings(1).level.toInt(), "a negative level reaches Rust as 0 (refused there)")
        eq(255, Settings(level = 266).vsSettings(1).level.toInt(), "never wraps into 1–10")
        for ((key, value) in listOf(
            "settings.game" to "LINES", "settings.level" to "99", "settings.color" to "GREEN",
            "settings.sound" to "loud", "settings.name" to "   ", "settings.linesPreview" to "yes",
            "settings.raceStartBalls" to "4", "settings.raceMinutes" to "-1",
        )) store.putString(key, value)
        eq(Settings(rules = "casual"), Settings.load(store), "only the good value (rules) is kept")
        store.putString("settings.level", "0")
        store.putString("settings.game", "LINES")
        eq(3, Settings.load(store).level)
        eq(GameKind.XIANGQI, Settings.load(store).game, "a game this build does not play")
        // The name is kept as every match sends it (Rust's rule): cleaned, at most 32 characters.
        store.putString("settings.name", "  An \u202e  Binh ")
        eq("An Binh", Settings.load(store).playerName)
        store.putString("settings.name", "龍".repeat(40))
        eq(32, Settings.load(store).playerName.length)
    }

    s.test("sound cues: each new move once, the end once, nothing for undo or the first state") {
        val cues = org.banco.shell.SoundCues()
        fun move(ply: Int, check: Boolean = false, capture: Boolean = false): PlayedMove {
            val g = org.banco.Game(GameKind.XIANGQI)
            val p = g.play(g.legalMoves().first())
            g.close()
            val piece = p.piece
            return p.copy(ply = ply.toUInt(), givesCheck = check, captured = if (capture) piece else null)
        }
        eq(listOf<Sound>(), cues.next(move(3), false), "a continued game is not replayed")
        eq(listOf(Sound.MOVE), cues.next(move(4), false))
        eq(listOf<Sound>(), cues.next(move(4), false), "the same state again")
        eq(listOf(Sound.CAPTURE), cues.next(move(5, capture = true), false))
        eq(listOf<Sound>(), cues.next(move(3), false), "undo")
        eq(listOf<Sound>(), cues.next(null, false), "back to the start")
        eq(listOf(Sound.CHECK, Sound.GAME_OVER), cues.next(move(1, check = true), true))
        eq(listOf<Sound>(), cues.next(move(1, check = true), true), "the end once")
    }
}
