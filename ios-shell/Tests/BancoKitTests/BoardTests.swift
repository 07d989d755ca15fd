// The board model and settings.
import Foundation
import BancoKit

func boardTests(_ s: Suite) {
    s.test("board model: pieces, glyphs, flip, cells, taps") {
        let g = try Game(kind: .xiangqi)
        let b = try BoardModel.of(g, flipped: false)
        try eq(32, b.pieces.count, "pieces")
        try eq("炮", b.pieces[square("h2")]?.glyph)
        try check(b.cell(of: square("h2")) == (7, 7))
        var f = b
        f.flipped = true
        try check(f.cell(of: square("h2")) == (1, 2))
        for board in [b, f] {
            for file in 0...8 {
                for rank in 0...9 {
                    let c = board.cell(of: sq(file, rank))
                    try eq(sq(file, rank), board.square(column: c.column, row: c.row))
                }
            }
        }
        try eq(nil, b.square(column: 9, row: 0))
        let legal = { (from: Square) -> [Move] in (try? g.legalMovesFrom(square: from)) ?? [] }
        try eq(.ignored, b.tap(square("e5"), mover: .red, legalFrom: legal).1)
        try eq(.ignored, b.tap(square("h9"), mover: .red, legalFrom: legal).1)
        try eq(.ignored, b.tap(square("h2"), mover: nil, legalFrom: legal).1)
        let (sel, r1) = b.tap(square("h2"), mover: .red, legalFrom: legal)
        try eq(.selected(square("h2")), r1)
        try check(sel.targets.contains(square("e2")) && sel.targets.contains(square("h9")))
        try eq(.cleared, sel.tap(square("e5"), mover: .red, legalFrom: legal).1)
        let (after, r2) = sel.tap(square("e2"), mover: .red, legalFrom: legal)
        try eq(.chosen(mv("h2", "e2")), r2)
        try eq(nil, after.selected)
        let checked = try Game.fromFen(fen: "3k5/9/9/9/9/9/9/9/3R5/4K4 b - - 0 1")
        try eq(square("d9"), try BoardModel.of(checked, flipped: true).checkedKing)
    }

    s.test("settings: saved, loaded, damaged values fall back") {
        let store = MemoryStore()
        try eq(Settings(), Settings.load(store))
        let mine = Settings(level: 7, color: .black, rules: .casual, sound: false, playerName: "Lan")
        mine.save(store)
        try eq(mine, Settings.load(store))
        store.set("settings.level", "99")
        store.set("settings.color", "GREEN")
        store.set("settings.sound", "loud")
        store.set("settings.name", "  ")
        try eq(Settings(level: 10, rules: .casual), Settings.load(store))
        try eq(RepetitionRule.casual, RulesPreset.casual.rules().repetition)
    }
}
