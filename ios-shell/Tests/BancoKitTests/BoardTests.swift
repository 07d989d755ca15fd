// The board layout (where Rust's cells go on the screen, which cell a touch hits) and the
// settings kept in the store.
import Foundation
import BancoKit

/// Rust's board at the start of a game of `kind`, as the player of `color` sees it.
func startBoard(_ kind: GameKind, _ color: Color = .red) throws -> BoardView {
    final class Quiet: VsListener, @unchecked Sendable { func onState(state: VsState) {} }
    let vs = try VsComputer(settings: Settings(game: kind, level: 1, color: color).vs(movetimeMs: 50), listener: Quiet())
    defer { try? vs.end() }
    return try vs.state().board
}

func boardTests(_ s: Suite) {
    s.test("layout: xiangqi 9×10 on intersections, chess 8×8 in squares, touches to cells") {
        let x = try Game(kind: .xiangqi)
        let l = BoardLayout(board: try startBoard(.xiangqi), width: 360, height: 500)
        try eq(40, l.cell)
        try eq([0, 50], [l.left, l.top])
        try check(l.onIntersections)
        try check(l.center(column: 0, row: 0) == (20, 70))
        for c in 0..<9 {
            for r in 0..<10 {
                let p = l.center(column: c, row: r)
                try check(l.cellAt(x: p.x, y: p.y)! == (c, r), "\(c),\(r)")
                try check(l.cellAt(x: p.x + 19, y: p.y - 19)! == (c, r), "a touch near \(c),\(r)")
            }
        }
        try check(l.cellAt(x: 10, y: 49) == nil && l.cellAt(x: 361, y: 100) == nil && l.cellAt(x: 10, y: 451) == nil)
        // Rust's lines: 10 rows, 2 edge columns, 7 inner columns broken by the river, 4 palace diagonals.
        try eq(10 + 2 + 14 + 4, l.lines.count)
        let inner = l.lines.filter { $0.from.x == $0.to.x && $0.from.x != 20 && $0.from.x != 340 }
        try check(inner.allSatisfy { $0.to.y <= l.center(column: 0, row: 4).y || $0.from.y >= l.center(column: 0, row: 5).y },
                  "no inner line crosses the river")
        try eq(32, try x.pieces().count)

        let chess = BoardLayout(board: try startBoard(.chess, .black), width: 400, height: 300)
        try eq(37.5, chess.cell)
        try eq(50, chess.left)
        try check(!chess.onIntersections && chess.lines.isEmpty)
        try check(chess.cellAt(x: 50, y: 0)! == (0, 0) && chess.cellAt(x: 349.9, y: 299.9)! == (7, 7))
        try check(chess.cellAt(x: 49.9, y: 10) == nil)
        let empty = BoardLayout(board: try startBoard(.chess), width: 0, height: 0)
        try check(empty.cellAt(x: 0, y: 0) == nil)
    }

    s.test("layout: the river where Rust puts it (riverAfterRow), either way up; none in chess") {
        for color in [Color.red, .black] {
            let board = try startBoard(.xiangqi, color)
            try eq(4, board.riverAfterRow, "the river below the fifth row, \(color) below")
            // Cells of 40 from a top margin of 50: the river's middle halfway between the
            // centres of rows 4 and 5.
            let l = BoardLayout(board: board, width: 360, height: 500)
            try eq((l.center(column: 0, row: 4).y + l.center(column: 0, row: 5).y) / 2, l.riverY)
            try eq(250, l.riverY)
        }
        try eq(4, try startBoard(.jieqi).riverAfterRow)
        let chess = try startBoard(.chess)
        try eq(nil, chess.riverAfterRow)
        try eq(nil, BoardLayout(board: chess, width: 300, height: 300).riverY, "chess has no river")
    }

    s.test("settings: saved, loaded, damaged or out-of-range values fall back") {
        let store = MemoryStore()
        try eq(Settings(), Settings.load(store))
        // The defaults are Rust's (`defaultSettings()`), the values both phones had written each.
        let d = Settings()
        try eq(Settings(game: .xiangqi, level: 3, color: .red, rules: "asian", sound: true, playerName: "Player",
                        raceStartBalls: 5, raceMinutes: 5), d)
        try eq(RaceSettings(startBalls: 5, timeLimitS: 300, preview: false), d.raceSettings)
        let mine = Settings(game: .chess, level: 7, color: .black, rules: "casual", sound: false, playerName: "Lan",
                            linesPreview: true, raceStartBalls: 3, raceMinutes: 10)
        mine.save(store)
        try eq(mine, Settings.load(store))
        // The race a host proposes comes from them (it was a fixed 5 balls, 5 minutes, no preview).
        try eq(RaceSettings(startBalls: 3, timeLimitS: 600, preview: true), mine.raceSettings)
        // The race time limits a screen offers are Rust's, with Rust's labels.
        try eq([2, 5, 10, 30, 60], Settings.raceMinuteChoices)
        try eq(["2 min", "5 min", "10 min", "30 min", "60 min"], Settings.raceMinuteChoices.map { Settings.raceMinutesLabel($0) })
        store.set("settings.game", "go")
        store.set("settings.level", "99")
        store.set("settings.color", "GREEN")
        store.set("settings.sound", "loud")
        store.set("settings.rules", "house")
        store.set("settings.name", "  ")
        store.set("settings.linesPreview", "yes")
        store.set("settings.raceStartBalls", "4")
        store.set("settings.raceMinutes", "-1")
        try eq(Settings(), Settings.load(store))
        store.set("settings.level", "0")
        store.set("settings.name", String(repeating: "n", count: 100))
        try eq(3, Settings.load(store).level)
        try eq(32, Settings.load(store).playerName.count)
        // The name is kept as every match sends it (Rust's rule): cleaned of invisible characters.
        store.set("settings.name", "  An \u{202e}  Binh ")
        try eq("An Binh", Settings.load(store).playerName)
        let casual = Rules.xiangqi(repetition: .casual, repetitions: 3, noCapturePlies: 120)
        try eq(casual, mine.rulesFor(.xiangqi))
        try eq(defaultRules(kind: .xiangqi), Settings().rulesFor(.xiangqi))
        try eq(nil, mine.gameRules, "chess: the usual rules")
        // Jieqi gets the preset too (it used to get the default rules whatever was chosen).
        try eq(Rules.jieqi(repetition: .casual, repetitions: 3, noCapturePlies: 120), mine.with(game: .jieqi).gameRules)
        try eq(["asian", "casual"], offeredPresets().map { $0.name })
        try eq(1...10, computerLevels)
        store.set("settings.rules", "CASUAL")
        try eq("casual", Settings.load(store).rules, "any case is read")
        let vs = mine.with(game: .xiangqi).vs(fen: mateInOne, movetimeMs: 5)
        try eq(VsSettings(kind: .xiangqi, human: .black, level: 7, rules: casual, movetimeMs: 5, fen: mateInOne), vs)
        try eq(255, Settings(level: 1000).vs().level, "passed on for Rust to refuse")
        try eq(MatchOffer(game: .chess, yourColor: .black, rules: nil, startFen: nil), mine.offer)
        try eq([GameKind.xiangqi, .chess, .jieqi], Settings.games)
        try eq(boardGames(), Settings.games, "every game Rust plays is on the home screen")
        try eq(["Xiangqi", "Chess", "Jieqi"], Settings.games.map(gameName))
        for k in Settings.games {
            mine.with(game: k).save(store)
            try eq(k, Settings.load(store).game, "every game Rust plays is kept in the settings")
        }
        try eq("Queen", pieceName(.queen))
    }
}
