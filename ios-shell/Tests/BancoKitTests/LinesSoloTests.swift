// The solo Lines screen's model beyond play: the buttons' states, and the hint thought about off the UI thread (it arrives
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

    s.test("Lines hint off the UI thread: it arrives through the UI dispatcher and names a legal move") {
        let ui = TestUI()
        let m = ui.call { LinesModel(ui: ui, store: MemoryStore()) }
        try ui.call {
            try check(m.newGame(startBalls: 5, seed: 13))
            m.hint()
            try check(m.state.hinting && !m.state.canHint && m.state.hint == nil, "thinking: \(m.state)")
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
}
