// Lines from Swift: a whole seeded game played through LinesGame by its hints (the path to
// animate, the announced balls landing, typed refusals, undo, best scores, save → load
// giving the same future balls), a Lines 98 preview game whose balls land on the spots
// shown (and in its view), a Lines race between two Match objects over loopback, played
// until both boards are full, with the race in each side's MatchState, and a race with the
// preview.
import Foundation

/// The case name of a LinesError ("EmptySource"), to check which one a call threw.
func linesFails(_ expected: String, line: Int = #line, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let e as LinesError {
        let name = "\(e)".prefix { $0 != "(" }
        try check(name == expected, "expected \(expected), got \(e)", line: line)
        try check(!e.message.isEmpty && bancoMessage(e) == e.message, "a message: \(e)", line: line)
        try check(!e.message.contains(expected + "("), "the text, not a dump: \(e.message)", line: line)
        return
    } catch {
        throw TestFailure(description: "line \(line): expected a LinesError, got \(error)")
    }
    throw TestFailure(description: "line \(line): expected \(expected), nothing was thrown")
}

/// A legal move on a race board given as cells (0 empty): a ball and an empty neighbour.
func raceMoveOn(_ cells: Data) -> (UInt8, UInt8)? {
    for from in 0..<81 where cells[from] != 0 {
        let (f, r) = (from % 9, from / 9)
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (nf, nr) = (f + df, r + dr)
            guard (0...8).contains(nf), (0...8).contains(nr) else { continue }
            if cells[nr * 9 + nf] == 0 { return (UInt8(from), UInt8(nr * 9 + nf)) }
        }
    }
    return nil
}

func linesTests(_ s: Suite) {
    s.test("Lines taps: pick, pick another, put down, a walled-off cell, move") {
        let game = try LinesGame(settings: LinesSettings(startBalls: 5, undo: .off), seed: 5)
        let view = game.view()
        let balls = view.cells.indices.filter { view.cells[$0] != 0 }.map { UInt8($0) }
        let empty = UInt8(view.cells.firstIndex(of: 0)!)
        try eq(LinesTap.ignored, try game.tap(cell: empty), "an empty cell with nothing picked")
        try linesFails("OffBoard") { _ = try game.tap(cell: 81) }
        guard case .selected(let cell, let reachable) = try game.tap(cell: balls[0]) else {
            throw TestFailure(description: "a tap picks the ball")
        }
        try eq(balls[0], cell)
        try eq(try game.reachable(from: balls[0]), reachable)
        guard case .selected(let other, _) = try game.tap(cell: balls[1]) else { throw TestFailure(description: "another ball") }
        try eq(balls[1], other)
        try eq(balls[1], game.selected())
        try eq(LinesTap.deselected, try game.tap(cell: balls[1]))
        try eq(nil, game.selected())
        _ = try game.tap(cell: balls[0])
        game.clearSelection()
        try eq(nil, game.selected())
        // Play by hints until some ball cannot reach some empty cell: that tap keeps the pick.
        var walled = false
        for _ in 0..<200 {
            let v = game.view()
            let cells = v.cells
            var pair: (UInt8, UInt8)?
            for f in 0..<81 where cells[f] != 0 && pair == nil {
                let reach = Set(try game.reachable(from: UInt8(f)))
                if let t = (0..<81).first(where: { cells[$0] == 0 && !reach.contains(UInt8($0)) }) { pair = (UInt8(f), UInt8(t)) }
            }
            if let (f, t) = pair {
                _ = try game.tap(cell: f)
                guard case .unreachable(let message) = try game.tap(cell: t) else { throw TestFailure(description: "out of reach") }
                try check(message.contains("no free path"), message)
                try eq(f, game.selected(), "still picked")
                try eq(v, game.view(), "nothing moved")
                walled = true
                break
            }
            guard let h = game.hint() else { break }
            _ = try game.tap(cell: h.from)
            guard case .moved(let turn) = try game.tap(cell: h.to) else { throw TestFailure(description: "the ball moves") }
            try eq(h.path, turn.path)
            try eq(Int(v.cells[Int(h.from)]) - 1, Int(turn.color))
            try eq(nil, game.selected())
        }
        try check(walled, "some position walls a cell off")
    }

    s.test("a seeded Lines game played by its hints to the end, save and load") {
        let settings = LinesSettings(startBalls: 5, undo: .lastTurn)
        let game = try LinesGame(settings: settings, seed: 42)
        try eq(try LinesGame(settings: settings, seed: 42).view(), game.view(), "a seed repeats the game")
        var view = game.view()
        try eq(81, view.cells.count)
        try eq(5, view.balls)
        try eq(3, view.nextColors.count)
        try eq("red", linesColorName(color: 0))
        try eq("i9", linesCellName(cell: 80))

        // Refusals are typed and change nothing.
        let empty = UInt8(view.cells.firstIndex(of: 0)!)
        let balls = view.cells.indices.filter { view.cells[$0] != 0 }.map { UInt8($0) }
        try linesFails("EmptySource") { _ = try game.play(from: empty, to: empty) }
        try linesFails("Occupied") { _ = try game.play(from: balls[0], to: balls[1]) }
        try linesFails("OffBoard") { _ = try game.play(from: 81, to: 0) }
        try linesFails("Unreadable") { _ = try game.playText(text: "a1") }
        try linesFails("NothingToUndo") { try game.undo() }
        try linesFails("BadSettings") { _ = try LinesGame(settings: LinesSettings(startBalls: 4, undo: .off), seed: nil) }
        // The hint's budget: more than 10,000 playouts is refused, the budget stays.
        try linesFails("BadSettings") { try game.setHintPlayouts(playouts: 10_001) }
        try game.setHintPlayouts(playouts: 1)
        try game.setHintPlayouts(playouts: 30)
        try eq(view, game.view(), "refusals change nothing")
        try eq(view.score, game.score())

        var saved: Data? = nil
        var afterSave: [LinesTurn] = []
        var turns = 0
        // 3000: a bound on a runaway loop, not a prediction (the hint's games last about 120–1,500 turns).
        while turns < 3000, let hint = game.hint() {
            try check(!hint.reason.isEmpty, "a hint says why")
            let before = game.view()
            let turn = try game.play(from: hint.from, to: hint.to)
            try eq(hint.path, turn.path, "the path shown is the path played")
            try eq(hint.from, turn.path.first)
            try eq(hint.to, turn.path.last)
            for i in 1..<turn.path.count {
                let (a, b) = (Int(turn.path[i - 1]), Int(turn.path[i]))
                try check(abs(a - b) == 9 || (abs(a - b) == 1 && a / 9 == b / 9), "a step to a neighbour: \(a) → \(b)")
            }
            try eq(before.score + turn.points, turn.score, "points add up")
            if turn.cleared.isEmpty {
                // As many as there are empty cells for (the last turn too); a full board's
                // last ball may complete a line.
                let room = min(3, before.cells.filter { $0 == 0 }.count)
                try eq(Array(before.nextColors.prefix(room)), turn.landed.map { $0.color }, "the announced balls land")
            }
            turns += 1
            if saved != nil && afterSave.count < 15 { afterSave.append(turn) }
            if turns == 10 {
                try game.undo()
                let back = game.view()
                try eq(before.cells, back.cells, "undo gives the board back")
                try eq(before.nextColors, back.nextColors)
                try eq(before.score, back.score)
                try eq(turn, try game.play(from: hint.from, to: hint.to), "undo cannot fish for balls")
            }
            if turns == 15 {
                // Redo plays the turn taken back again, once.
                try game.undo()
                try check(game.view().canRedo, "a turn taken back can be played again")
                try eq(turn, game.redo(), "redo lands the same balls")
                try eq(nil, game.redo())
                try check(!game.view().canRedo, "nothing left to redo")
            }
            if turns == 20 { saved = try game.save() }
        }
        view = game.view()
        try check(view.gameOver && game.isOver(), "the board filled up in \(turns) turns")
        try eq(81, view.balls)
        try check(view.score > 0, "hints clear lines")
        try linesFails("GameOver") { _ = try game.play(from: 0, to: 1) }
        try eq(nil, game.hint())
        try eq(0, game.recordResult(date: "2026-12-02"))
        try eq(view.score, game.bestScores().first?.score)
        let other = try LinesGame(settings: settings, seed: nil)
        try other.loadBestScores(bytes: try game.bestScoresBytes())
        try eq(game.bestScores(), other.bestScores())

        // Save → load: the same position, and the same moves land the same balls. Its seed known
        // (a shared challenge), the game is not ranked.
        let back = try LinesGame.load(bytes: saved!)
        try eq(20, back.view().turns)
        try check(!back.view().seedKnown, "not marked")
        back.markSeedKnown()
        try check(back.view().seedKnown, "marked")
        for t in afterSave {
            try eq(t, try back.play(from: t.path.first!, to: t.path.last!), "the same future after loading")
        }
        back.startClock(limitMs: 1_000, nowMs: 0)
        try eq(0, back.tick(nowMs: 1_000), "ended on time")
        try check(back.isOver() && back.view().score > 0, "over, with points")
        try eq(nil, back.recordResult(date: "2026-12-02"), "a game of a known seed is not ranked")
        try linesFails("BadSave") { _ = try LinesGame.load(bytes: Data([1, 2, 3])) }
        var newer = try back.save()
        newer[newer.startIndex + 8] = 200
        try linesFails("NewerSave") { _ = try LinesGame.load(bytes: newer) }
    }

    s.test("a seeded Lines 98 preview game lands its next balls on the spots shown") {
        let settings = LinesSettings(startBalls: 5, undo: .lastTurn, preview: true)
        let game = try LinesGame(settings: settings, seed: 7)
        try eq(true, game.view().settings.preview)
        let classic = try LinesGame(settings: LinesSettings(startBalls: 5, undo: .lastTurn), seed: 7)
        try eq(0, classic.nextSpots().count, "no spots without the preview")
        var onSpots = 0
        for _ in 0..<20 {
            let spots = game.nextSpots()
            let next = game.view().nextColors
            try eq(3, spots.count, "three spots")
            guard let h = game.hint() else { break }
            let turn = try game.play(from: h.from, to: h.to)
            // A move that takes no spot and makes no line: the balls land on the spots shown.
            if turn.cleared.isEmpty && !spots.contains(h.to) {
                try eq(Array(spots), turn.landed.map { $0.cell }, "the balls land on the spots shown")
                try eq(Array(next), turn.landed.map { $0.color }, "in the colours announced")
                onSpots += 1
            }
            if game.isOver() { break }
        }
        try check(onSpots > 5, "only \(onSpots) landings on spots")
        let back = try LinesGame.load(bytes: try game.save())
        try eq(game.nextSpots(), back.nextSpots(), "the spots survive save and load")
        try eq(true, back.view().settings.preview)
    }

    s.test("a Lines 98 preview game's view carries the spots its balls land on") {
        let game = try LinesGame(settings: LinesSettings(startBalls: 3, undo: .off, preview: true), seed: 11)
        let classic = try LinesGame(settings: LinesSettings(startBalls: 3, undo: .off), seed: 11)
        try eq(0, classic.view().nextSpots.count, "no spots in a classic view")
        var onSpots = 0
        for _ in 0..<15 {
            let view = game.view()
            try eq(game.nextSpots(), view.nextSpots, "the view's spots are nextSpots()")
            guard let h = game.hint() else { break }
            let turn = try game.play(from: h.from, to: h.to)
            if turn.cleared.isEmpty && !view.nextSpots.contains(h.to) {
                try eq(Array(view.nextSpots), turn.landed.map { $0.cell }, "each ball on its spot")
                try eq(Array(view.nextColors), turn.landed.map { $0.color }, "in its colour")
                onSpots += 1
            }
            if game.isOver() { break }
        }
        try check(onSpots > 5, "only \(onSpots) landings on spots")
    }

    s.test("a Lines race between two Match objects over loopback, to the end") {
        let hl = SwiftMatchListener(), gl = SwiftMatchListener()
        let host = try Match.host(playerName: "An", listenAddress: "127.0.0.1:0", advertise: false,
                                  offers: [], proposal: nil, listener: hl)
        let address = try hl.next("listening") { e -> String? in if case .listening(let a) = e { return a }; return nil }
        let guest = try Match.join(playerName: "Binh", address: address, listener: gl)
        defer {
            try? guest.leave()
            try? host.leave()
        }
        let hc = try hl.next("host code") { e -> String? in if case .verifyCode(let c, _) = e { return c }; return nil }
        try host.confirmCode(code: hc)
        // The guest confirms the code it was shown (it may see it after the host does).
        let gc = try gl.next("guest code") { e -> String? in if case .verifyCode(let c, _) = e { return c }; return nil }
        try eq(hc, gc, "both sides show the same code")
        try guest.confirmCode(code: gc)
        try eq(nil, host.raceState())
        let settings = RaceSettings(startBalls: 3, timeLimitS: 3600)
        try host.proposeRace(settings: settings, color: .red)
        _ = try gl.next("proposal") { e -> Bool? in if case .proposed = e { return true }; return nil }
        try guest.acceptProposal()
        for (l, color) in [(hl, Color.red), (gl, Color.black)] {
            let u = try l.next("started") { e -> RaceUpdate? in
                if case .race(let u) = e, case .started = u { return u }
                return nil
            }
            try eq(RaceUpdate.started(settings: settings, yourColor: color), u)
        }
        let hs = try host.state()
        try eq(GameKind.lines, hs.kind)
        try eq(Color.red, hs.race?.yourColor)
        try eq(hs.race?.board, try guest.state().race?.board, "one seed, the same board on both sides")

        // Both sides play until their boards are full.
        var moves = 0
        while try [host, guest].contains(where: { try $0.state().race?.canMove == true }) {
            for m in [host, guest] {
                guard let r = try m.state().race, r.canMove, let mv = raceMoveOn(r.board!.cells) else { continue }
                let (from, to) = mv
                if m === guest {
                    // The guest plays by taps: pick the ball, then its target.
                    guard case .selected = try m.raceTap(cell: from) else { throw TestFailure(description: "a tap picks the ball") }
                    try eq(from, m.raceSelected())
                    guard case .moved(let turn) = try m.raceTap(cell: to) else { throw TestFailure(description: "the ball moves") }
                    try eq(from, turn.path.first)
                    try eq(Int(r.board!.cells[Int(from)]) - 1, Int(turn.color))
                    try eq(nil, m.raceSelected())
                } else {
                    let turn = try m.raceMove(from: from, to: to)
                    try eq(from, turn.path.first)
                    try eq(to, turn.path.last)
                }
                moves += 1
            }
            try check(moves < 1000, "the boards fill up")
        }
        func over(_ l: SwiftMatchListener) throws -> RaceOutcome {
            try l.next("over") { e -> RaceOutcome? in
                if case .race(let u) = e, case .over(let o) = u { return o }
                return nil
            }
        }
        let ho = try over(hl), go = try over(gl)
        try eq(RaceEnding.finished, ho.ending)
        let h = try host.state().race!, g = try guest.state().race!
        try check(h.board!.full && g.board!.full, "both boards full")
        try eq(h.score, g.opponentScore, "the guest's replica scores the host's board")
        try eq(g.score, h.opponentScore)
        try eq(h.board, g.opponent, "the replica is the board")
        try eq(ho, h.outcome)
        try eq(go, g.outcome)
        try eq(ho.redScore, h.score)
        try eq(ho.blackScore, g.score)
        try eq(RaceOutcome(redScore: go.redScore, blackScore: go.blackScore, redTurns: go.redTurns,
                           blackTurns: go.blackTurns, winner: go.winner, ending: go.ending, text: ho.text),
               ho, "both sides agree on the result")
        try fails(.match, .illegalMove, .gameOver) { _ = try host.raceMove(from: 0, to: 1) }
        try eq(LinesTap.ignored, try host.raceTap(cell: 0), "no taps after the end")
    }

    s.test("a Lines race with Lines 98's preview: the guest learns it, both show the host's spots, the balls land there") {
        let hl = SwiftMatchListener(), gl = SwiftMatchListener()
        let host = try Match.host(playerName: "An", listenAddress: "127.0.0.1:0", advertise: false,
                                  offers: [], proposal: nil, listener: hl)
        let address = try hl.next("listening") { e -> String? in if case .listening(let a) = e { return a }; return nil }
        let guest = try Match.join(playerName: "Binh", address: address, listener: gl)
        defer {
            try? guest.leave()
            try? host.leave()
        }
        let hc = try hl.next("host code") { e -> String? in if case .verifyCode(let c, _) = e { return c }; return nil }
        try host.confirmCode(code: hc)
        let gc = try gl.next("guest code") { e -> String? in if case .verifyCode(let c, _) = e { return c }; return nil }
        try guest.confirmCode(code: gc)
        let settings = RaceSettings(startBalls: 5, timeLimitS: 3600, preview: true)
        try host.proposeRace(settings: settings, color: .red)
        let offer = try gl.next("proposal") { e -> MatchOffer? in if case .proposed(let o, _) = e { return o }; return nil }
        try eq(settings, offer.race, "the guest sees the race's options, the preview included, before accepting")
        try eq(settings, guest.state().proposal?.race, "and in the match state")
        try eq("5 balls, 60 min, preview", guest.state().offeredRace, "in words for the accept prompt")
        try guest.acceptProposal()
        for (l, color) in [(hl, Color.red), (gl, Color.black)] {
            let u = try l.next("started") { e -> RaceUpdate? in
                if case .race(let u) = e, case .started = u { return u }
                return nil
            }
            try eq(RaceUpdate.started(settings: settings, yourColor: color), u, "both start the race with its options")
        }
        var onSpots = 0
        for i in 0..<8 {
            guard let board = host.raceState()?.board, let mv = raceMoveOn(board.cells) else {
                throw TestFailure(description: "no race board or no move")
            }
            try eq(3, board.nextSpots.count, "our board shows its spots")
            let turn = try host.raceMove(from: mv.0, to: mv.1)
            if turn.cleared.isEmpty && !board.nextSpots.contains(mv.1) {
                try eq(board.nextSpots, turn.landed, "the balls land on the spots shown")
                onSpots += 1
            }
            _ = try gl.next("opponent move \(i)") { e -> Bool? in
                if case .race(let u) = e, case .opponentMoved(let t, _, _) = u, t == UInt32(i) { return true }
                return nil
            }
            let mine = host.raceState()?.board, replica = guest.raceState()?.opponent
            try eq(mine?.cells, replica?.cells, "the replica lands the balls as our board does")
            try eq(mine?.nextSpots, replica?.nextSpots, "and shows the same spots")
        }
        try check(onSpots > 3, "only \(onSpots) landings on spots")
    }
}
