// The solo Lines screen's model beyond play: the options of a new game from Settings (start
// balls, undo rule, time limit or none — a continued game keeps its own), the buttons' states,
// the whole best-scores table, and the hint thought about off the UI thread (it arrives
// through the UI dispatcher; one overtaken by a move, an undo or a new game is dropped).
import Foundation
import BancoKit

func linesSoloTests(_ s: Suite) {
    s.test("Lines buttons: Undo and Redo on exactly when Rust allows them, Hint off while it thinks") {
        var jobs: [() -> Void] = []
        let m = LinesModel(ui: InlineUI(), store: MemoryStore(), background: { jobs.append($0) })
        try check(m.newGame(startBalls: 5, undo: .lastTurn, seed: 7))
        func buttons() -> [Bool] { [m.state.canUndo, m.state.canRedo, m.state.canHint] }
        try eq([false, false, true], buttons(), "at the start: nothing to take back")
        let (f, t) = neighbourMove(m.state.view!.cells)!
        try check(m.play(f, t) != nil)
        try eq([true, false, true], buttons(), "after a move: Undo")
        m.undo()
        try eq([false, true, true], buttons(), "the last turn taken back: Redo, no second undo")
        m.redo()
        try eq([true, false, true], buttons(), "played again: Undo")
        m.hint()
        try eq([true, false, false], buttons(), "Hint off while it thinks")
        jobs.removeFirst()()
        try eq([true, false, true], buttons(), "the hint came")
        try check(m.newGame(startBalls: 5, undo: .off, seed: 7))
        let (f2, t2) = neighbourMove(m.state.view!.cells)!
        try check(m.play(f2, t2) != nil)
        try eq([false, false, true], buttons(), "undo off: never Undo")
    }

    s.test("Lines options: Settings keep the start balls, undo and time limit, and a new game takes them") {
        let store = MemoryStore()
        let d = Settings()
        let defaults = linesDefaultOptions()
        try eq([Int(defaults.startBalls), Int(defaults.timeLimitS)], [d.linesStartBalls, d.linesTimeLimitS], "Rust's defaults")
        try eq(defaults.undo, d.linesUndo)
        try eq([3, 5], Settings.linesStartBallChoices, "Rust's start balls")
        try check(Settings.linesTimeLimitChoices.contains { $0.seconds == 0 && $0.label == "no limit" }, "an untimed game is offered")
        try eq([LinesUndo.off, .lastTurn, .unlimited], Settings.linesUndoChoices.map { $0.undo }, "every undo rule offered")
        var chosen = Settings(linesPreview: true, linesStartBalls: 3, linesUndo: .off, linesTimeLimitS: 0)
        chosen.save(store)
        try eq("off", store.string("settings.linesUndo"), "the undo rule stored by Rust's name")
        try eq(chosen, Settings.load(store), "kept")
        // Damaged or out-of-range values fall back to the defaults.
        store.set("settings.linesStartBalls", "4")
        store.set("settings.linesUndo", "sometimes")
        store.set("settings.linesTimeLimitS", "17")
        let damaged = Settings.load(store)
        try eq([d.linesStartBalls, d.linesTimeLimitS], [damaged.linesStartBalls, damaged.linesTimeLimitS])
        try eq(d.linesUndo, damaged.linesUndo)

        // An untimed game of 3 balls without undo: the Undo button stays off.
        var clock: Int64 = 0
        let m = inlineLines(store: store, now: { clock })
        try check(m.newGame(chosen, seed: 7))
        try eq(3, m.state.view?.balls)
        try eq(LinesSettings(startBalls: 3, undo: .off, preview: true), m.state.view?.settings)
        try eq(nil, m.state.timeLeftMs, "untimed")
        try check(!m.state.canUndo && !m.state.canRedo && m.state.canHint, "\(m.state)")
        let (f, t) = neighbourMove(m.state.view!.cells)!
        try check(m.play(f, t) != nil)
        clock += 3_600_000
        m.tick()
        try check(!m.state.canUndo && !m.state.over && m.state.timeLeftMs == nil, "no undo, no clock: \(m.state)")

        // Undo of the last turn, 60 seconds: Undo on after a move, then Redo.
        chosen.linesStartBalls = 5
        chosen.linesUndo = .lastTurn
        chosen.linesTimeLimitS = 60
        chosen.linesPreview = false
        try check(m.newGame(chosen, seed: 7))
        try eq(60_000, m.state.timeLeftMs)
        let (f2, t2) = neighbourMove(m.state.view!.cells)!
        try check(m.play(f2, t2) != nil)
        try check(m.state.canUndo && !m.state.canRedo, "Undo on after a move")
        m.undo()
        try check(!m.state.canUndo && m.state.canRedo, "only the last turn: Undo off, Redo on")
        m.redo()
        try check(m.state.canUndo && !m.state.canRedo, "played again, the last turn can be taken back again")

        // Continued later with other settings chosen meanwhile: the game keeps its own.
        Settings(linesStartBalls: 3, linesUndo: .unlimited, linesTimeLimitS: 600).save(store)
        let later = inlineLines(store: store, now: { clock })
        try check(later.continueGame())
        try eq(LinesSettings(startBalls: 5, undo: .lastTurn, preview: false), later.state.view?.settings,
               "the saved game's settings")
        try eq(60_000, later.state.timeLeftMs, "and its own clock")
        try check(later.newGame(Settings.load(store), seed: 7))
        try eq(LinesSettings(startBalls: 3, undo: .unlimited, preview: false), later.state.view?.settings,
               "a new game takes the settings")
        try eq(600_000, later.state.timeLeftMs)
    }

    s.test("Lines hint strength: Settings keep it, a damaged one is the default, and the hint thinks as hard as chosen") {
        let store = MemoryStore()
        let d = Settings()
        try eq(Int(linesDefaultOptions().hintPlayouts), d.linesHintPlayouts, "Rust's default")
        let offered = Settings.linesHintChoices.map { Int($0.playouts) }
        try eq(offered.sorted(), offered, "the quickest first")
        try check(offered.contains(d.linesHintPlayouts), "the default is offered: \(offered)")
        let quick = offered[0]
        Settings(linesHintPlayouts: quick).save(store)
        try eq(quick, Settings.load(store).linesHintPlayouts, "kept")
        store.set("settings.linesHintPlayouts", "77")
        try eq(d.linesHintPlayouts, Settings.load(store).linesHintPlayouts, "one not offered: the default")

        // A seed whose first hint differs between the quickest strength and the default.
        func hintOf(_ seed: UInt64, _ playouts: Int) throws -> String {
            let g = try LinesGame(settings: LinesSettings(startBalls: 5, undo: .lastTurn, preview: false), seed: seed)
            try g.setHintPlayouts(playouts: UInt32(playouts))
            return g.hint()!.text
        }
        var found: UInt64?
        for s in UInt64(1)...40 {
            if try hintOf(s, quick) != hintOf(s, d.linesHintPlayouts) {
                found = s
                break
            }
        }
        guard let seed = found else { throw TestFailure(description: "no seed among 1–40 where the strengths differ") }
        let m = inlineLines(store: store)
        try check(m.newGame(Settings(linesHintPlayouts: quick), seed: seed))
        try eq(quick, m.hintPlayouts)
        try eq(hintOf(seed, quick), m.hintNow().text, "the quick hint")
        try check(m.newGame(Settings(), seed: seed))
        try eq(hintOf(seed, d.linesHintPlayouts), m.hintNow().text, "the default hint")
        // Past what Rust allows: refused with its message, the strength unchanged.
        try check(!m.setHintPlayouts(1_000_000), "refused")
        try check(m.state.message?.contains("playouts") == true, "the message: \(String(describing: m.state.message))")
        try eq(d.linesHintPlayouts, m.hintPlayouts)
        // Set during a game (before its first hint): the hint thinks as now chosen.
        try check(m.newGame(Settings(), seed: seed))
        try check(m.setHintPlayouts(quick))
        try eq(hintOf(seed, quick), m.hintNow().text, "set during the game")
    }

    s.test("Lines clock: a move made after the time ran out is refused, the clock counted first") {
        var clock: Int64 = 0
        let m = inlineLines(store: MemoryStore(), now: { clock })
        try check(m.newGame(startBalls: 5, timeLimitS: 60, seed: 31))
        let h = try m.hintNow()
        clock += 61_000
        try check(m.play(Int(h.from), Int(h.to)) == nil, "no move once the time is up")
        try check(m.state.timeUp, "time up")
        try eq(0, m.state.view?.turns ?? 99, "nothing played")
    }

    s.test("Lines best scores: every row with its rank, score, turns and text; the last game's at its rank") {
        var clock: Int64 = 0
        let store = MemoryStore()
        let m = inlineLines(store: store, now: { clock })
        // Three seeded games played to their first points, ended on time: the ties go after the
        // older games.
        for game in 0..<3 {
            try check(m.newGame(startBalls: 5, timeLimitS: 60, seed: UInt64(21 + game)))
            try playUntilScored(m, seed: UInt64(21 + game))
            clock += 60_000
            m.tick()
            try check(m.state.timeUp, "time up")
        }
        let st = m.state
        try eq(3, st.best.count)
        try eq([0, 1, 2], st.best.map { $0.rank })
        guard let rank = st.rank, let view = st.view else { throw TestFailure(description: "no rank: \(st)") }
        let row = st.best[rank]
        try eq([view.score, view.turns], [row.score, row.turns], "the last game's row")
        try check(st.best.allSatisfy { $0.score > 0 }, "only games with points are ranked")
        try check(zip(st.best, st.best.dropFirst()).allSatisfy { $0.score >= $1.score }, "best first: \(st.best)")
        // The last game goes after every older game of its score (a tie ranks below).
        try eq(st.best.filter { $0.score >= row.score }.count - 1, rank, "a tie goes after the older games")
        for r in st.best {
            let points = r.score == 1 ? "point" : "points"
            let turns = r.turns == 1 ? "turn" : "turns"
            try check(r.text.hasPrefix("\(r.rank + 1). \(r.score) \(points), \(r.turns) \(turns) ("), r.text)
            try check(r.text.hasSuffix("(\(r.date))") && !r.date.isEmpty, r.text)
        }
        // Kept between launches, the same rows for a game of the same kind (5 balls, 1 min).
        let again = inlineLines(store: store)
        try check(again.newGame(startBalls: 5, timeLimitS: 60, seed: 1))
        try eq(st.best, again.state.best)
        try eq("classic, 5 balls, undo of the last turn, 1 min limit", view.bestKind.label)
        // An untimed game is of another kind: its own table.
        let untimed = inlineLines(store: store)
        try check(untimed.newGame(seed: 1))
        try eq([], untimed.state.best)
    }

    s.test("Lines shared challenge: a game of a known seed is kept and continued marked, and never ranked") {
        var clock: Int64 = 0
        let store = MemoryStore()
        let m = inlineLines(store: store, now: { clock })
        try check(m.newGame(startBalls: 5, timeLimitS: 60, seed: 31, seedKnown: true))
        try eq(true, m.state.view?.seedKnown, "marked")
        try eq(true, m.state.view?.rankingNote?.contains("not ranked"), "Rust's note for the screen")
        try playUntilScored(m, seed: 31)
        // The kept game comes back marked in the next launch, and ends there on time with points.
        let later = inlineLines(store: store, now: { clock })
        try check(later.continueGame())
        try eq(true, later.state.view?.seedKnown, "the kept game keeps the mark")
        try check((later.state.view?.score ?? 0) > 0, "points")
        clock += 60_000
        later.tick()
        try check(later.state.timeUp, "time up")
        try eq([], later.state.best, "not ranked")
        try eq(nil, later.state.rank)
        // Another seed without the mark is an ordinary game: ranked. (Seed 31 again would
        // not be: the table remembers that game as played to its end, its balls known.)
        try check(later.newGame(startBalls: 5, timeLimitS: 60, seed: 32))
        try eq(false, later.state.view?.seedKnown, "a new game is not marked")
        try eq(nil, later.state.view?.rankingNote, "an ordinary game: no note")
        try playUntilScored(later, seed: 32)
        clock += 60_000
        later.tick()
        try eq(1, later.state.best.count, "ranked")
        try eq(0, later.state.rank)
    }

    s.test("Lines hint off the UI thread: it arrives through the UI dispatcher and names a legal move") {
        let ui = TestUI()
        let m = ui.call { LinesModel(ui: ui, store: MemoryStore()) }
        try ui.call {
            try check(m.newGame(startBalls: 5, seed: 13))
            m.hint()
            try check(m.state.hinting && !m.state.canHint && m.state.hint == nil, "thinking: \(m.state)")
            // Asking counts at once: the game now ranks among games with hints.
            try eq(1, m.state.view?.hintsUsed)
            try check(m.state.view?.bestKind.hints == true, "the kind: \(String(describing: m.state.view?.bestKind))")
        }
        let st = try ui.wait("the hint", { m.state }, until: { $0.hint != nil })
        try check(!st.hinting && st.canHint, "done thinking: \(st)")
        guard let h = st.hint else { throw TestFailure(description: "no hint") }
        // The same hint Rust gives for the position, and a move the game takes.
        let same = try LinesGame(settings: LinesSettings(startBalls: 5, undo: .lastTurn, preview: false), seed: 13).hint()
        try eq(same?.text, h.text)
        try ui.call {
            try eq(nil, m.tap(Int(h.from)))
            try check(m.state.reachable.contains(Int(h.to)), "the target is reachable")
            guard let turn = m.tap(Int(h.to)) else { throw TestFailure(description: "refused: \(m.state.message ?? "")") }
            try eq(h.path, turn.path, "the path shown is the path played")
            try eq(nil, m.state.hint, "a move clears the hint")
        }
    }

    s.test("Lines hint: one overtaken by a move, an undo or a new game is dropped when it comes") {
        // The hint's thinking waits in a queue that the test runs when it chooses.
        var jobs: [() -> Void] = []
        let m = LinesModel(ui: InlineUI(), store: MemoryStore(), background: { jobs.append($0) })
        func runNext() { jobs.removeFirst()() }
        try check(m.newGame(startBalls: 5, undo: .unlimited, seed: 17))
        m.hint()
        try check(m.state.hinting, "thinking")
        m.hint()
        try eq(1, jobs.count, "one hint at a time")
        // A move while it thinks: the answer, for the position before, is dropped.
        let (f, t) = neighbourMove(m.state.view!.cells)!
        try check(m.play(f, t) != nil)
        try check(!m.state.hinting, "the move ends the wait")
        runNext()
        try eq(nil, m.state.hint, "the late hint is dropped")
        // Undo, then new game, while a hint thinks: dropped too.
        m.hint()
        m.undo()
        runNext()
        try eq(nil, m.state.hint, "dropped after an undo")
        m.hint()
        try check(m.newGame(startBalls: 3, seed: 18))
        runNext()
        try eq(nil, m.state.hint, "dropped after a new game")
        // Asked in the position on screen, it shows, and it is a legal move there.
        m.hint()
        runNext()
        guard let h = m.state.hint else { throw TestFailure(description: "the hint of this position shows") }
        try check(!m.state.hinting)
        try eq(0, jobs.count)
        let g = try LinesGame(settings: LinesSettings(startBalls: 3, undo: .lastTurn, preview: false), seed: 18)
        _ = try g.tap(cell: h.from)
        guard case .moved(_) = try g.tap(cell: h.to) else { throw TestFailure(description: "the hint plays") }
        try check(m.play(Int(h.from), Int(h.to)) != nil)
    }

    s.test("Lines best scores that do not load: a newer table is kept untouched, a damaged one set aside") {
        var clock: Int64 = 1_000
        // A finished game: played to its first points, then the time runs out.
        func finishOne(_ m: LinesModel) throws {
            try check(m.newGame(startBalls: 5, timeLimitS: 60, seed: 3))
            try playUntilScored(m, seed: 3)
            clock += 61_000
            m.tick()
            try check(m.state.timeUp)
        }
        let good = MemoryStore()
        try finishOne(inlineLines(store: good, now: { clock }))
        var table = Data(base64Encoded: good.string(LinesModel.bestKey)!)!
        table[table.startIndex] = 7
        let newerText = table.base64EncodedString()
        // A newer Banco's table (version 7): Rust's reason shown once, the table never written.
        let store = MemoryStore()
        store.set(LinesModel.bestKey, newerText)
        let m = inlineLines(store: store, now: { clock })
        let message = m.state.message
        try check(message?.contains("update the app") == true && message?.contains("not kept") == true, "\(String(describing: message))")
        try finishOne(m)
        try eq(message, m.state.message, "shown until cleared, also across a new game")
        m.clearMessage()
        try check(m.newGame(seed: 4))
        try eq(nil, m.state.message, "once")
        try eq(newerText, store.string(LinesModel.bestKey), "the newer table is not overwritten")
        // A damaged table: set aside, then new scores are kept.
        let damaged = MemoryStore()
        let bad = Data([1, 0xff, 0xff, 0xff, 0xff, 0xff]).base64EncodedString()
        damaged.set(LinesModel.bestKey, bad)
        let d = inlineLines(store: damaged, now: { clock })
        try check(d.state.message?.contains("set aside") == true, "\(d.state)")
        try eq(bad, damaged.string(LinesModel.bestDamagedKey))
        try finishOne(d)
        let g = try LinesGame(settings: LinesSettings(startBalls: 5, undo: .lastTurn), seed: 1)
        try g.loadBestScores(bytes: Data(base64Encoded: damaged.string(LinesModel.bestKey)!)!)
        try eq(1, g.bestScores().count)
        try eq(bad, damaged.string(LinesModel.bestDamagedKey), "the damaged bytes stay aside")
    }

    s.test("Lines game to continue: a new game keeps it until its first turn; a newer Banco's is kept") {
        let store = MemoryStore()
        let m = inlineLines(store: store)
        try check(m.newGame(seed: 5))
        let (f, t) = neighbourMove(m.state.view!.cells)!
        try check(m.play(f, t) != nil)
        let kept = store.string(LinesModel.continueKey)
        try check(kept != nil)
        let again = inlineLines(store: store)
        try check(again.newGame(seed: 6))
        again.pause()
        again.resume()
        try eq(kept, store.string(LinesModel.continueKey), "no turn in the new game: the old one stays")
        let (f2, t2) = neighbourMove(again.state.view!.cells)!
        try check(again.play(f2, t2) != nil)
        try check(store.string(LinesModel.continueKey) != kept, "the new game is kept from its first turn")
        // Saved by a newer Banco: refused with Rust's reason, and kept.
        var newer = Data(base64Encoded: kept!)!
        newer[newer.startIndex + 8] = 200
        store.set(LinesModel.continueKey, newer.base64EncodedString())
        let later = inlineLines(store: store)
        try check(!later.continueGame())
        try check(later.state.message?.contains("update the app") == true, "\(later.state)")
        try eq(newer.base64EncodedString(), store.string(LinesModel.continueKey))
        // Damaged: dropped.
        store.set(LinesModel.continueKey, Data([1, 2, 3]).base64EncodedString())
        try check(!later.continueGame())
        try check(!later.canContinue)
    }
}
