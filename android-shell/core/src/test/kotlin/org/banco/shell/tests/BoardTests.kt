// The board model: pieces and glyphs, screen cells with and without flipping, tap selection.
package org.banco.shell.tests

import org.banco.Color
import org.banco.Game
import org.banco.GameKind
import org.banco.shell.BoardModel
import org.banco.shell.Settings
import org.banco.shell.MemoryStore
import org.banco.shell.RulesPreset
import org.banco.shell.TapResult
import org.banco.shell.mv
import org.banco.shell.name
import org.banco.shell.sq
import org.banco.shell.square

fun boardTests(s: Suite) {
    s.test("board model: pieces, glyphs, flip, cells") {
        Game(GameKind.XIANGQI).use { g ->
            val b = BoardModel.of(g, flipped = false)
            eq(32, b.pieces.size, "pieces")
            eq("炮", b.pieceAt(square("h2"))?.glyph)
            eq("將", b.pieceAt(square("e9"))?.glyph)
            eq(7 to 7, b.cellOf(square("h2")), "h2 on screen")
            eq(null, b.checkedKing)
            val f = b.copy(flipped = true)
            eq(1 to 2, f.cellOf(square("h2")), "h2 flipped")
            for (board in listOf(b, f)) {
                for (file in 0..8) for (rank in 0..9) {
                    val (c, r) = board.cellOf(sq(file, rank))
                    eq(sq(file, rank), board.squareAt(c, r), "cell round trip")
                }
            }
            eq(null, b.squareAt(9, 0))
            eq(null, b.squareAt(0, -1))
        }
    }

    s.test("board model: tap to select, show targets, choose a move") {
        Game(GameKind.XIANGQI).use { g ->
            val b = BoardModel.of(g, flipped = false)
            val legal = { from: org.banco.Square -> g.legalMovesFrom(from) }
            eq(TapResult.Ignored, b.tap(square("e5"), Color.RED, legal).second, "empty square")
            eq(TapResult.Ignored, b.tap(square("h9"), Color.RED, legal).second, "opponent piece")
            eq(TapResult.Ignored, b.tap(square("h2"), null, legal).second, "not my turn")
            val (sel, r1) = b.tap(square("h2"), Color.RED, legal)
            eq(TapResult.Selected(square("h2")), r1)
            check(square("e2") in sel.targets && square("h9") in sel.targets) { "${sel.targets.map { it.name }}" }
            eq(g.legalMovesFrom(square("h2")).size, sel.targets.size, "targets")
            // Another own piece switches the selection; a non-target clears it.
            val (sel2, r2) = sel.tap(square("b0"), Color.RED, legal)
            eq(TapResult.Selected(square("b0")), r2)
            val (cleared, r3) = sel2.tap(square("e5"), Color.RED, legal)
            eq(TapResult.Cleared, r3)
            eq(null, cleared.selected)
            val (after, r4) = sel.tap(square("e2"), Color.RED, legal)
            eq(TapResult.Chosen(mv("h2", "e2")), r4)
            check(after.selected == null && after.targets.isEmpty())
        }
        Game.fromFen("3k5/9/9/9/9/9/9/9/3R5/4K4 b - - 0 1").use { g ->
            eq(square("d9"), BoardModel.of(g, flipped = true).checkedKing, "king in check")
        }
    }

    s.test("settings: saved, loaded, damaged values fall back") {
        val store = MemoryStore()
        eq(Settings(), Settings.load(store), "defaults")
        val mine = Settings(level = 7, color = Color.BLACK, rules = RulesPreset.CASUAL, sound = false, playerName = "Lan")
        mine.save(store)
        eq(mine, Settings.load(store))
        eq(org.banco.RepetitionRule.CASUAL, Settings.load(store).rules.rules().repetition)
        store.putString("settings.level", "99")
        store.putString("settings.color", "GREEN")
        store.putString("settings.sound", "loud")
        store.putString("settings.name", "   ")
        eq(Settings(level = 10, rules = RulesPreset.CASUAL), Settings.load(store))
    }
}
