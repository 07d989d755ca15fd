// Lines through BancoKit: a seeded solo game played by taps (pick, target, the ball's walk
// along its path) to the end, kept and continued, against the clock; a game with Lines 98's
// preview (its spots drawn, the balls landing there); and a race between two MatchModels over
// 127.0.0.1, played by taps until both boards are full.
import Foundation
import BancoKit

/// A ball with an empty neighbour on `cells` (0 empty): a move that is always legal.
func neighbourMove(_ cells: Data) -> (Int, Int)? {
    for from in 0..<81 where cells[from] != 0 {
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (f, r) = (from % 9 + df, from / 9 + dr)
            if (0...8).contains(f), (0...8).contains(r), cells[r * 9 + f] == 0 { return (from, r * 9 + f) }
        }
    }
    return nil
}

/// Runs what a model posts at once, on the calling thread.
final class InlineUI: UIDispatcher {
    func post(_ block: @escaping () -> Void) { block() }
}

/// A model whose hint thinks at once on the calling thread (the tests that play by hints).
func inlineLines(store: KeyValueStore = MemoryStore(), now: (() -> Int64)? = nil) -> LinesModel {
    if let now { return LinesModel(ui: InlineUI(), store: store, now: now, background: { $0() }) }
    return LinesModel(ui: InlineUI(), store: store, background: { $0() })
}

/// Plays `m`'s game — new with `seed` and `startBalls`, no preview — until it has a point (a game
/// without one is no record), each move the hint of a twin game of the same seed: `m`'s own game
/// asks no hint, so it ranks among games without hints. Its turns then.
@discardableResult
func playUntilScored(_ m: LinesModel, seed: UInt64, startBalls: UInt8 = 5) throws -> UInt32 {
    let twin = try LinesGame(settings: LinesSettings(startBalls: startBalls, undo: .off, preview: false), seed: seed)
    try twin.setHintPlayouts(playouts: 1)
    while m.state.view?.score == 0 {
        try eq(twin.view().cells, m.state.view?.cells, "the twin plays the same game")
        guard let h = twin.hint() else { throw TestFailure(description: "no hint: \(m.state)") }
        _ = try twin.play(from: h.from, to: h.to)
        try check(m.play(Int(h.from), Int(h.to)) != nil, "the twin's move")
    }
    return m.state.view?.turns ?? 0
}

extension LinesModel {
    /// The hint of an `inlineLines` model, thought about at once.
    func hintNow() throws -> LinesHint {
        hint()
        guard let h = state.hint else { throw TestFailure(description: "no hint: \(state)") }
        return h
    }
}

func linesTests(_ s: Suite) {
    s.test("Lines 98 preview: a new game with it shows each next ball on its spot, and the balls land there") {
        let m = inlineLines()
        try check(m.newGame(startBalls: 3, undo: .off, seed: 11, preview: true))
        try eq(true, m.state.view?.settings.preview)
        var onSpots = 0
        for _ in 0..<15 {
            guard let view = m.state.view else { throw TestFailure(description: "no view") }
            let shown = view.spotBalls
            try eq(3, shown.count, "three announced balls, each on its spot")
            try eq(view.nextColors.map { Int($0) }, shown.map { $0.color }, "in the announced colours")
            let h = try m.hintNow()
            guard let turn = m.play(Int(h.from), Int(h.to)) else { throw TestFailure(description: "refused") }
            if turn.cleared.isEmpty && !shown.contains(where: { $0.cell == Int(h.to) }) {
                try eq(shown, turn.landed.map { SpotBall(cell: Int($0.cell), color: Int($0.color)) },
                       "the balls land where they were drawn")
                onSpots += 1
            }
            if m.state.over { break }
        }
        try check(onSpots > 5, "only \(onSpots) landings on spots")
        try check(m.newGame(startBalls: 3, undo: .off, seed: 11))
        try eq(0, m.state.view?.spotBalls.count, "off by default: no spots")
        try eq(false, m.state.view?.settings.preview)
    }

    s.test("Lines: a seeded game played by taps to the end, kept and continued") {
        let store = MemoryStore()
        let m = inlineLines(store: store)
        try check(m.newGame(startBalls: 5, seed: 9))
        try eq(5, m.state.view?.balls)
        try eq(nil, m.state.timeLeftMs, "no clock unless asked")
        var turns = 0
        var kept: String?
        // 3000: a bound on a runaway loop, not a prediction (the hint's games last about 110–1,600 turns).
        while !m.state.over && turns < 3000 {
            let h = try m.hintNow()
            try check(!h.reason.isEmpty, "the hint says why")
            if turns == 0 {
                // The picked ball tapped again is put down (Rust decides).
                m.tap(Int(h.from))
                try eq(nil, m.tap(Int(h.from)))
                try eq(nil, m.state.selected)
                try eq([], m.state.reachable)
            }
            try eq(nil, m.tap(Int(h.from)), "a tap on a ball picks it")
            try eq(Int(h.from), m.state.selected)
            try check(m.state.reachable.contains(Int(h.to)), "the target is marked reachable")
            let before = m.state.view!.cells.map { Int($0) }
            guard let turn = m.tap(Int(h.to)) else { throw TestFailure(description: "refused: \(m.state.message ?? "")") }
            try eq(nil, m.state.selected)
            let run = m.state.run!
            // While the ball walks, the board before the turn, the ball lifted off its cell
            // (a line it completes stays whole, landed balls wait); then the turn's end.
            let after = m.state.view!.cells.map { Int($0) }
            var lifted = before
            lifted[Int(h.from)] = 0
            try eq(lifted, run.cells(at: 0, after: after), "the board while it walks")
            try eq(after, run.cells(at: run.durationMs, after: after), "the board once it arrived")
            try eq(turn.path.map { Int($0) }, run.path, "the model animates the path Rust gave")
            try eq(Int(h.from), run.cell(at: 0))
            try eq(Int(h.to), run.cell(at: run.durationMs))
            if run.path.count > 2 { try eq(run.path[1], run.cell(at: BallRun.stepMs), "one cell per step") }
            try eq(turn.score, m.state.view?.score)
            turns += 1
            if turns == 5 { kept = store.string(LinesModel.continueKey) }
        }
        try check(m.state.view?.gameOver == true, "the board filled up in \(turns) turns")
        try eq(0, m.state.rank, "the first game tops the best scores")
        try eq(m.state.view?.score, m.state.best.first?.score)
        // The table's row at the game's rank: its rank, score, turns and Rust's text.
        let row = m.state.best[m.state.rank ?? 0]
        try eq([0, m.state.view!.score, m.state.view!.turns], [row.rank, row.score, row.turns])
        try check(row.text.hasPrefix("1. \(row.score) points, \(row.turns) turns ("), row.text)
        try eq(nil, store.string(LinesModel.continueKey), "a finished game is not kept")
        try eq(nil, m.tap(0), "no move after the end")

        // Taking the end back takes it out of the best scores (kept ones too); redo ends
        // the game again, entered once.
        let ending = m.state.view!
        m.undo()
        try check(!m.state.over && m.state.view?.canRedo == true, "the last turn is taken back")
        try eq([], m.state.best, "the ending is taken out")
        try eq(nil, m.state.rank)
        let fresh = inlineLines(store: store)
        try check(fresh.newGame(seed: 1))
        try eq([], fresh.state.best, "the kept table follows")
        try eq(ending.score, m.redo()?.score, "the same balls land again")
        try check(m.state.over, "the board is full again")
        try eq(nil, m.redo())
        try eq(0, m.state.rank)
        try eq(1, m.state.best.count, "one entry a game")

        // Best scores are kept between games; a refused move keeps the board and says why.
        let d = inlineLines(store: store)
        try check(d.newGame(seed: 9))
        // The game above was played with hints: it ranks in the table of games with hints,
        // which a game without them does not show; asking for a hint shows it.
        try check(m.state.view?.bestKind.hints == true && d.state.view?.bestKind.hints == false, "the kinds")
        try eq(0, d.state.best.count, "no game without hints yet")
        _ = try d.hintNow()
        try eq(m.state.view?.score, d.state.best.first?.score)
        let v = d.state.view!
        let empties = v.cells.indices.filter { v.cells[$0] == 0 }
        try eq(nil, d.play(empties[0], empties[1]))
        try check(d.state.message?.contains("no ball") == true, d.state.message ?? "")
        try eq(v, d.state.view)

        // The game kept after 5 turns continues there.
        store.set(LinesModel.continueKey, kept)
        try check(d.continueGame())
        try eq(5, d.state.view?.turns)
    }

    s.test("Lines against the clock: the time runs out and the game stops") {
        var clock: Int64 = 1_000
        let store = MemoryStore()
        let first = inlineLines(store: store, now: { clock })
        try check(first.newGame(startBalls: 3, timeLimitS: 60, seed: 4))
        try eq(60_000, first.state.timeLeftMs)
        clock += 20_000
        first.tick()
        try eq(40_000, first.state.timeLeftMs)
        // The app in the background for 10 minutes (a phone call): no time is counted.
        first.pause()
        clock += 600_000
        first.tick()
        try eq(40_000, first.state.timeLeftMs, "paused in the background")
        first.resume()
        clock += 1_000
        first.tick()
        try eq(39_000, first.state.timeLeftMs, "running again")
        let turns = try playUntilScored(first, seed: 4, startBalls: 3)
        // Left and continued later: the clock stood still meanwhile and goes on from 39 s.
        clock += 500_000
        let m = inlineLines(store: store, now: { clock })
        try check(m.continueGame())
        try eq(39_000, m.state.timeLeftMs, "the time it had left")
        clock += 40_000
        m.tick()
        try check(m.state.timeUp && m.state.over, "time up")
        try check(m.state.view?.gameOver == true, "Rust ended the game")
        let (f2, t2) = neighbourMove(m.state.view!.cells)!
        try eq(nil, m.play(f2, t2), "no move once the time is up")
        try eq(turns, m.state.view?.turns)
        // The score ended on time enters the best scores; nothing is left to continue.
        try eq(0, m.state.rank)
        try eq(m.state.view?.score, m.state.best.first?.score)
        try check(!m.canContinue, "nothing to continue")
        try check(!m.newGame(startBalls: 4), "4 start balls are refused")
        try check(m.state.message != nil)
    }

    s.test("Lines race between two MatchModels over loopback, to the end") {
        let host = Side(), guest = Side()
        defer {
            guest.leave()
            host.leave()
        }
        // The race of the host's Settings (3 balls, an hour), hosted on a port that is
        // taken (by another host here): on a free one instead, as a board game's host does.
        // Hosted as a board game is (the lobby's host, here without Bluetooth).
        let settings = Settings(playerName: "An", raceStartBalls: 3, raceMinutes: 60)
        try eq(RaceSettings(startBalls: 3, timeLimitS: 3600, preview: false), settings.raceSettings)
        let blocker = Side()
        defer { blocker.leave() }
        blocker.model = try blocker.ui.call {
            try LobbyModel(ui: blocker.ui).host(settings: Settings(playerName: "Xu"), address: "127.0.0.1:0", advertise: false,
                                                race: true)
        }
        let taken = try blocker.wait("the blocker listening") { $0.phase == .listening }.address
        host.model = try host.ui.call {
            try MatchModel.onFreePortIfTaken(taken) {
                try LobbyModel(ui: host.ui).host(settings: settings, address: $0, advertise: false, race: true)
            }
        }
        let address = try host.wait("listening") { $0.phase == .listening }.address
        try check(address != taken, "hosted on the taken port: \(address)")
        guest.model = try guest.ui.call { try MatchModel.join(ui: guest.ui, name: "Binh", address: address) }
        let hv = try host.wait("host code") { $0.phase == .verify }
        try guest.wait("guest code") { $0.phase == .verify }
        host.act { $0.confirmCode(hv.code!) }
        guest.act { $0.confirmCode(hv.code!) }
        try guest.wait("the race proposed") { $0.phase == .proposed }
        guest.act { $0.acceptOffer($0.state.match!.proposalId!) }
        let h0 = try host.wait("host started") { $0.race?.board != nil }.race!
        let g0 = try guest.wait("guest started") { $0.race?.board != nil }.race!
        try eq(Color.red, h0.yourColor)
        try eq(Color.black, g0.yourColor)
        try eq(h0.board, g0.board, "one seed, the same boards")

        var moves = 0
        while [host, guest].contains(where: { side in side.ui.call { side.model.state.race?.canMove == true } }) {
            for side in [host, guest] {
                try side.ui.call {
                    let model = side.model!
                    guard let r = model.state.race, r.canMove, let mv = neighbourMove(r.board!.cells) else { return }
                    let (from, to) = mv
                    var lifted = r.board!.cells.map { Int($0) }
                    lifted[from] = 0
                    try eq(nil, model.raceTap(from), "a tap on a ball picks it")
                    try eq(from, model.state.raceSelected)
                    guard let turn = model.raceTap(to) else {
                        throw TestFailure(description: "refused: \(model.state.message ?? "")")
                    }
                    let run = model.state.raceRun!
                    try eq(turn.path.map { Int($0) }, run.path)
                    try eq(lifted, run.cells(at: 0, after: []), "our board while the ball walks")
                    try eq(to, run.cell(at: run.durationMs))
                    try eq(nil, model.state.raceSelected)
                    moves += 1
                }
            }
            try check(moves < 1000, "the boards fill up")
        }
        let h = try host.wait("host result") { $0.race?.outcome != nil }.race!
        let g = try guest.wait("guest result") { $0.race?.outcome != nil }.race!
        try eq(RaceEnding.finished, h.outcome?.ending)
        let ho = h.outcome!, go = g.outcome!
        try eq(RaceOutcome(redScore: go.redScore, blackScore: go.blackScore, redTurns: go.redTurns,
                           blackTurns: go.blackTurns, winner: go.winner, ending: go.ending, text: ho.text),
               ho, "both sides agree")
        try eq(h.score, g.opponentScore)
        try eq(g.score, h.opponentScore)
        try check(h.board!.full && g.board!.full)
    }
}
