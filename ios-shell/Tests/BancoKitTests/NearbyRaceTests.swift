// A Lines race hosted nearby through the lobby, as a board game is: the host's LobbyModel
// opens it on the LAN and over the Bluetooth double (NearbyTests' Air, PipePeripheral,
// PipeCentral), the guest finds it in the nearby list (a Lines host, over Bluetooth), joins,
// sees the race's options and accepts, and both models race by taps; after every exchange
// each side's race state shows the other's board as it is (the race screen's opponent board,
// score and balls), and a resignation ends the race alike on both sides. Then "race again":
// the same race anew, from a new seed on both sides.
import Foundation
import BancoKit

extension Side {
    /// Plays a move on the race board by two taps (the ball, then a free neighbour).
    func raceByTaps() throws {
        try ui.call {
            let m = model!
            guard let r = m.state.race, r.canMove, let mv = neighbourMove(r.board!.cells) else {
                throw TestFailure(description: "no race move: \(String(describing: m.state.race))")
            }
            let (from, to) = mv
            try eq(nil, m.raceTap(from), "a tap on a ball picks it")
            guard m.raceTap(to) != nil else { throw TestFailure(description: "refused: \(m.state.message ?? "")") }
        }
    }

    var race: RaceState? { ui.call { model.state.race } }
}

/// Waits until each side's race shows the other's board as it is; returns both races.
@discardableResult
func awaitMirrored(_ host: Side, _ guest: Side) throws -> (RaceState, RaceState) {
    let deadline = Date().addingTimeInterval(30)
    while true {
        if let h = host.race, let g = guest.race, h.board != nil, g.board != nil,
           h.board == g.opponent, g.board == h.opponent {
            try eq(h.board!.score, g.opponentScore, "the score the guest shows")
            try eq(h.board!.balls, g.opponentBalls, "the balls the guest shows")
            try eq(g.board!.score, h.opponentScore, "the score the host shows")
            try eq(g.board!.balls, h.opponentBalls, "the balls the host shows")
            return (h, g)
        }
        if Date() > deadline {
            throw TestFailure(description: "the boards never mirrored: \(String(describing: host.race)) / \(String(describing: guest.race))")
        }
        Thread.sleep(forTimeInterval: 0.01)
    }
}

func nearbyRaceTests(_ s: Suite) {
    s.test("nearby race: hosted through the lobby on the LAN and Bluetooth, found and joined over Bluetooth, raced by taps, resigned") {
        let air = Air()
        let host = Side(), guest = Side()
        let (hostLobby, guestLobby, _) = nearbyLobbies(air, host, guest)
        // The race of the host's Settings: 3 balls, an hour, Lines 98's preview.
        let settings = Settings(playerName: "An", linesPreview: true, raceStartBalls: 3, raceMinutes: 60)
        host.model = try host.ui.call {
            try hostLobby.host(settings: settings, address: "127.0.0.1:0", advertise: false, race: true)
        }
        defer { guest.leave(); host.leave() }
        try host.wait("listening") { $0.phase == .listening }
        try eq([NearbyTransport.lan, .ble], host.state.openOn, "a race is open over Bluetooth too")
        try eq(nil, host.state.bluetooth)
        // Rust's race offer hosted with the board games, which Rust offers the race with.
        try eq(Settings.games + [GameKind.lines], host.state.match?.offers, "the board games and the race")

        // The guest's list shows a Lines host, over Bluetooth; joining it is joining the race.
        guest.ui.call { guestLobby.start { try NearbyLobby(interfaces: [], lan: false, ble: $0) } }
        let st = try guest.ui.wait("the race host listed", { guestLobby.state }) { !$0.players.isEmpty }
        try eq(1, st.players.count)
        let an = st.players[0]
        try eq([NearbyTransport.ble], an.transports)
        try check(LobbyModel.gamesText(an).contains("Lines"), LobbyModel.gamesText(an))
        guest.model = try guest.ui.call { try guestLobby.join(an, settings: Settings(playerName: "Binh")) }
        guest.ui.call { guestLobby.stop() }
        let code = try host.wait("host code") { $0.phase == .verify }.code!
        try eq(code, try guest.wait("guest code") { $0.phase == .verify }.code)
        host.act { $0.confirmCode(code) }
        guest.act { $0.confirmCode(code) }
        let proposed = try guest.wait("the race proposed") { $0.phase == .proposed }
        try eq(RaceSettings(startBalls: 3, timeLimitS: 3600, preview: true), proposed.proposal?.race,
               "the race of the host's settings")
        try eq("3 balls, 60 min, preview", proposed.offeredRace)
        try eq("Race: 3 balls, 60 min, preview", proposed.offeredTerms, "the accept prompt's words")
        guest.act { $0.acceptOffer($0.state.match!.proposalId!) }
        try host.wait("host racing") { $0.race?.board != nil }
        try guest.wait("guest racing") { $0.race?.board != nil }
        let (h0, g0) = try awaitMirrored(host, guest)
        try eq(Color.red, h0.yourColor)
        try eq(Color.black, g0.yourColor)
        try eq(h0.board, g0.board, "one seed, the same boards")
        try eq(3, h0.board!.balls)
        try eq(3, h0.board!.nextSpots.count, "the preview's spots")

        // Both race by taps, each move checked on the other side's replica.
        for round in 1...8 {
            try host.raceByTaps()
            try guest.raceByTaps()
            let (h, g) = try awaitMirrored(host, guest)
            try eq(UInt32(round), h.opponentTurns)
            try eq(UInt32(round), g.opponentTurns)
        }

        // The guest resigns: the same result on both sides, from each side's point of view.
        guest.act { $0.raceResign() }
        let h = try host.wait("host result") { $0.race?.outcome != nil }.race!
        let g = try guest.wait("guest result") { $0.race?.outcome != nil }.race!
        try eq(RaceEnding.resigned(by: .black), h.outcome!.ending)
        let ho = h.outcome!, go = g.outcome!
        try eq(RaceOutcome(redScore: go.redScore, blackScore: go.blackScore, redTurns: go.redTurns,
                           blackTurns: go.blackTurns, winner: go.winner, ending: go.ending, text: ho.text),
               ho, "both sides agree")
        try check(ho.text.hasPrefix("You won the race"), ho.text)
        try check(go.text.hasPrefix("You lost the race"), go.text)
        try check(!h.canMove && !g.canMove)
        try awaitMirrored(host, guest)
        // The race's end is the match's result too.
        try eq(MatchPhase.over, host.state.match?.phase)
        try eq(ho.text, host.state.match?.result)
        // The result stays on the race screen until "Back to the match" (as on Android): then
        // the match screen shows, on the same match; the other side's screen is its own.
        try check(host.ui.call { host.model.state.showsRace } && guest.ui.call { guest.model.state.showsRace })
        host.act { $0.backToMatch() }
        try check(!host.ui.call { host.model.state.showsRace }, "the host is back on the match screen")
        try check(guest.ui.call { guest.model.state.showsRace }, "the guest still sees the race's result")
        try eq(MatchPhase.over, host.state.match?.phase, "the same match")

        // Race again (the race screen's button, Rust's rematch): the guest's prompt shows the
        // same race, its board Black again; accepted, both race from a new seed.
        host.act { $0.proposeRematch() }
        let again = try guest.wait("the race proposed again") { $0.phase == .proposed }
        try eq(RaceSettings(startBalls: 3, timeLimitS: 3600, preview: true), again.proposal?.race, "the same options")
        try eq(Color.black, again.proposal?.yourColor)
        try eq("Race: 3 balls, 60 min, preview", again.offeredTerms, "the race screen's accept prompt")
        guest.act { $0.acceptOffer($0.state.match!.proposalId!) }
        try host.wait("host racing again") { $0.race?.outcome == nil && $0.race?.board != nil }
        try guest.wait("guest racing again") { $0.race?.outcome == nil && $0.race?.board != nil }
        let (h2, g2) = try awaitMirrored(host, guest)
        try eq(h2.board, g2.board, "one new seed for both")
        try check(h2.board != h0.board, "a new seed, not the last race's")
        try eq(0, h2.board!.turns)
        try check(h2.canMove && g2.canMove)
        try eq(MatchPhase.playing, host.state.match?.phase)
        try eq(nil, host.state.match?.result)
        // The new race is on its screen again; "Back to the match" does nothing while it runs.
        try check(host.ui.call { host.model.state.showsRace }, "the race again on its screen")
        host.act { $0.backToMatch() }
        try check(host.ui.call { host.model.state.showsRace }, "no way back while the race runs")
        try host.raceByTaps()
        try guest.wait("a move of the new race") { $0.race?.opponentTurns == 1 }

        // After a race, the Settings game (the race screen's MatchNextGame, review D M1): once
        // accepted Rust drops the race, so the match screen shows the board game, which saves.
        guest.act { $0.raceResign() }
        try host.wait("the second race over") { $0.race?.outcome != nil }
        try eq(MatchPhase.over, try guest.wait("over on the guest") { $0.race?.outcome != nil }.phase,
               "the race screen's MatchNextGame shows once over")
        try check(host.ui.call { host.model.state.showsRace }, "the second race's result on its screen too")
        guest.act { $0.propose(Settings(game: .chess, color: .red, playerName: "Binh")) }
        try host.wait("chess proposed after the race") { $0.phase == .proposed }
        host.act { $0.acceptOffer($0.state.match!.proposalId!) }
        let chess = try guest.wait("chess on the guest") { $0.phase == .playing && $0.kind == .chess }
        try eq(nil, guest.state.race, "no race left: the match screen shows the board")
        try check(!guest.ui.call { guest.model.state.showsRace })
        try eq(Color.red, chess.yourColor)
        try check(guest.ui.call { guest.model.saved() } != nil, "the board game can be saved")
    }
}
