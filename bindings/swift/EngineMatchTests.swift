// Engine, Match and Lobby from Swift: searches and hints for both games, a xiangqi and a
// chess match between two Match objects over loopback in one process, the lobby.
import Foundation

final class SwiftEngineListener: EngineListener, @unchecked Sendable {
    let results = Inbox<SearchReport>()
    let progress = Inbox<SearchReport>()
    let puzzles = Inbox<PuzzleSolution>()
    let failures = Inbox<String>()
    func onProgress(report: SearchReport) { progress.put(report) }
    func onResult(report: SearchReport) { results.put(report) }
    func onPuzzleSolved(solution: PuzzleSolution) { puzzles.put(solution) }
    func onFailed(searchId: UInt64, message: String) { failures.put(message) }
}

final class SwiftMatchListener: MatchListener, @unchecked Sendable {
    let events = Inbox<MatchEvent>()
    func onEvent(event: MatchEvent) { events.put(event) }

    /// The next event `pick` recognises.
    func next<R>(_ what: String, _ pick: (MatchEvent) -> R?) throws -> R { try events.next(what, 30, pick) }
}

/// Waits until `match.state()` satisfies `want` (events come before the state is read).
@discardableResult
func waitState(_ m: Match, _ what: String, _ want: (MatchState) -> Bool) throws -> MatchState {
    let deadline = Date().addingTimeInterval(30)
    while true {
        let s = try m.state()
        if want(s) { return s }
        if Date() > deadline { throw TestFailure(description: "timed out waiting for \(what); state: \(s)") }
        Thread.sleep(forTimeInterval: 0.01)
    }
}

/// A host and a guest over loopback, codes compared and confirmed, the host's proposal
/// accepted: both in the game.
func pair(offers: [GameKind], proposal: MatchOffer) throws
    -> (host: Match, hl: SwiftMatchListener, guest: Match, gl: SwiftMatchListener) {
    let hl = SwiftMatchListener(), gl = SwiftMatchListener()
    let host = try Match.host(playerName: "An", listenAddress: "127.0.0.1:0", advertise: false,
                              offers: offers, proposal: proposal, listener: hl)
    let address = try hl.next("listening") { e -> String? in if case .listening(let a) = e { return a }; return nil }
    try eq(address, try host.address())
    try eq([address], try host.state().reachable, "a host on one address is reached there")
    let guest = try Match.join(playerName: "Binh", address: address, listener: gl)
    try eq("", try guest.address())
    let hc = try hl.next("host code") { e -> String? in if case .verifyCode(let c, _) = e { return c }; return nil }
    let gname = try gl.next("guest code") { e -> String? in if case .verifyCode(_, let n) = e { return n }; return nil }
    try eq("An", gname)
    try eq(hc, try guest.code(), "same code on both devices")
    try eq(6, hc.count)
    try eq(MatchPhase.verify, try host.state().phase)
    try fails(.match) { try host.confirmCode(code: hc == "000000" ? "999999" : "000000") }
    try host.confirmCode(code: hc)
    try guest.confirmCode(code: hc)
    let offer = try gl.next("proposal") { e -> MatchOffer? in if case .proposed(let o, _) = e { return o }; return nil }
    try eq(proposal.game, offer.game)
    try eq(proposal.yourColor == .red ? Color.black : .red, offer.yourColor)
    let gs = try waitState(guest, "the proposal shown") { $0.phase == .proposed }
    try eq(offer, gs.proposal)
    try eq(offers, gs.peerGames)
    // The accept names the proposal shown: another number accepts nothing.
    guard let id = gs.proposalId else { throw TestFailure(description: "no proposal number") }
    try fails(.match) { try guest.acceptOffer(id: id + 1) }
    try eq(MatchPhase.proposed, try guest.state().phase)
    try guest.acceptOffer(id: id)
    for l in [hl, gl] {
        _ = try l.next("started") { e -> Bool? in if case .started(let g, _, _) = e, g == proposal.game { return true }; return nil }
    }
    return (host, hl, guest, gl)
}

func engineMatchTests(_ s: Suite) {
    s.test("engine: think, hint, stop, puzzle, both games") {
        let engine = try Engine(hashMib: 8)
        // Threads: the device's recommendation by default; two threads find the mate too.
        try eq(recommendedThreads(), try engine.threads())
        try check((1...4).contains(recommendedThreads()), "recommended \(recommendedThreads())")
        try engine.setThreads(threads: 2)
        try eq(2, try engine.threads())
        let g = try Game.fromFen(kind: .xiangqi, fen: "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1")
        let r = try engine.think(game: g, level: 10, movetimeMs: 500)
        try eq("e1d1", r.bestMove?.coordinate)
        try eq(EngineScore.mate(moves: 1), r.score)
        try eq(try move(.xiangqi, "e1", "d1"), r.pv.first)
        try eq(r.bestMove?.text, r.pvText.first)
        try check(!r.stopped && r.depth >= 1)
        let listener = SwiftEngineListener()
        let hid = try engine.hint(game: g, movetimeMs: 300, listener: listener)
        let hint = try listener.results.next("the hint") { $0 }
        try eq(hid, hint.searchId)
        try eq("e1d1", hint.bestMove?.coordinate)
        let pid = try engine.solvePuzzle(game: g, maxMoves: 3, timeLimitMs: 5000, listener: listener)
        let sol = try listener.puzzles.next("the solution") { $0 }
        try eq(pid, sol.searchId)
        try eq(1, sol.mateIn)
        try eq(try move(.xiangqi, "e1", "d1"), sol.line.first)
        try check(!sol.aborted && !sol.lineText.isEmpty)
        let start = try Game(kind: .xiangqi)
        let tid = try engine.bestMoveTimed(game: start, movetimeMs: 60_000, listener: listener)
        try check(try engine.isSearching())
        Thread.sleep(forTimeInterval: 0.2)
        try engine.stop()
        let stopped = try listener.results.next("the stopped search") { $0 }
        try eq(tid, stopped.searchId)
        try check(stopped.stopped && stopped.bestMove != nil)
        try check(waitFor(5) { !((try? engine.isSearching()) ?? true) })
        let lid = try engine.bestMove(game: start, level: 2, listener: listener)
        let lr = try listener.results.next("a level-2 move") { $0 }
        try eq(lid, lr.searchId)
        try check(try start.isLegal(mv: lr.bestMove!.played))
        try engine.clear()
        // Chess: the computer answers with a legal move (whatever its strength).
        let chess = try Game(kind: .chess)
        let cr = try engine.think(game: chess, level: 3, movetimeMs: 500)
        try check(try chess.isLegal(mv: cr.bestMove!.played), "\(cr)")
        _ = try engine.bestMove(game: chess, level: 1, listener: listener)
        try check(try chess.isLegal(mv: try listener.results.next("a chess move") { $0 }.bestMove!.played))
        // The mate solver takes chess as the editor's does; jieqi is refused.
        let backRank = try Game.fromFen(kind: .chess, fen: "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
        let cid = try engine.solvePuzzle(game: backRank, maxMoves: 2, timeLimitMs: 5000, listener: listener)
        let csol = try listener.puzzles.next("the chess solution") { $0 }
        try eq(cid, csol.searchId)
        try eq(1, csol.mateIn)
        try eq(["Ra8#"], csol.lineText)
        try fails(.unsupported) { _ = try engine.solvePuzzle(game: try Game(kind: .jieqi), maxMoves: 2, timeLimitMs: 100, listener: listener) }
        let mated = try Game(kind: .chess)
        _ = try playAll(mated, ["f3", "e5", "g4", "Qh4#"])
        try fails(.gameOver) { _ = try engine.think(game: mated, level: 5, movetimeMs: 100) }
        try fails(.gameOver) { _ = try engine.bestMove(game: mated, level: 5, listener: listener) }
        try eq(0, listener.failures.all.count, "\(listener.failures.all)")
    }

    s.test("match (xiangqi) over loopback: code, proposal, taps, undo, draw offers, leave") {
        let casual = Rules.xiangqi(repetition: .casual, repetitions: 3, noCapturePlies: 120)
        let (host, hl, guest, gl) = try pair(offers: [.xiangqi],
                                              proposal: MatchOffer(game: .xiangqi, yourColor: .red, rules: casual, startFen: nil))
        defer { try? guest.leave(); try? host.leave() }
        var hs = try waitState(host, "host playing") { $0.phase == .playing && $0.yourTurn }
        try eq([GameKind.xiangqi], hs.offers)
        try eq("Binh", hs.peerName)
        try eq(Color.red, try host.yourColor())
        try eq(Color.black, try guest.yourColor())
        try eq(casual, try guest.game().rules())
        try check(hs.board.map { !$0.flipped && $0.cells.count == 90 } == true)
        var gs = try waitState(guest, "guest playing") { $0.phase == .playing }
        try check(!gs.yourTurn && gs.board?.flipped == true)
        // Not your turn: NotAvailable, as against the computer.
        try eq("it is not your turn", try fails(.notAvailable) { _ = try guest.playText(text: "h9g7") })
        try fails(.match) { try guest.propose(offer: MatchOffer(game: .xiangqi, yourColor: .red, rules: nil, startFen: nil)) }
        let p = try host.playText(text: "C2=5")
        try eq("炮二平五", p.text)
        let seen = try gl.next("the host's move") { e -> PlayedMove? in
            if case .movePlayed(let p, let mine) = e, !mine { return p }
            return nil
        }
        try eq("h2e2", seen.coordinate)
        gs = try waitState(guest, "guest's turn") { $0.yourTurn }
        try eq(["炮二平五"], gs.moves)
        try eq("h2e2", gs.lastMove?.coordinate)
        // Black's horse h9 → g7 by taps on the flipped board: h9 is column 1, row 9.
        try eq(TapResult.selected(square: try square(.xiangqi, "h9")), try guest.tap(column: 1, row: 9))
        guard case .moved(let m) = try guest.tap(column: 2, row: 7) else { throw TestFailure(description: "no move") }
        try eq(try move(.xiangqi, "h9", "g7"), m)
        hs = try waitState(host, "the guest's move") { $0.moves.count == 2 }
        try eq("h9g7", hs.lastMove?.coordinate)
        try guest.requestUndo()
        try eq(1, try hl.next("undo request") { e -> UInt32? in if case .undoRequested(let p) = e { return p }; return nil })
        try eq(1, try waitState(host, "undo asked") { $0.undoRequest != nil }.undoRequest)
        try host.replyUndo(accept: true)
        _ = try gl.next("undone") { e -> Bool? in if case .undone(let p) = e, p == 1 { return true }; return nil }
        gs = try waitState(guest, "the guest's turn again") { $0.moves.count == 1 && $0.yourTurn }
        try host.offerDraw()
        _ = try gl.next("draw offer") { e -> Bool? in if case .drawOffered = e { return true }; return nil }
        try check(try guest.state().drawOffered)
        try guest.replyDraw(accept: false)
        _ = try hl.next("draw declined") { e -> Bool? in if case .drawDeclined = e { return true }; return nil }
        let notice = try waitState(host, "notice") { $0.notice != nil }.notice!
        try check(notice.contains("declined"), notice)
        try host.clearNotice()
        try eq(nil, try host.state().notice)
        try fails(.match) { try host.claimDraw() }
        // On its own turn the guest's offer goes with its next move (FIDE 9.1.2.2).
        try guest.offerDraw()
        try check(try guest.state().drawOfferHeld)
        try check(!(try host.state().drawOffered))
        _ = try guest.tap(column: 1, row: 9)
        guard case .moved = try guest.tap(column: 2, row: 7) else { throw TestFailure(description: "no move") }
        _ = try hl.next("draw offer") { e -> Bool? in if case .drawOffered = e { return true }; return nil }
        try check(!(try guest.state().drawOfferHeld))
        try host.replyDraw(accept: true)
        let (outcome, text) = try gl.next("game over") { e -> (Outcome, String)? in
            if case .gameOver(let o, let t) = e { return (o, t) }; return nil
        }
        try eq(Outcome.draw(reason: .agreement), outcome)
        try eq("Draw: agreement", text)
        hs = try waitState(host, "over") { $0.phase == .over }
        try eq("Draw: agreement", hs.result)
        try eq(try host.game().fen(), try guest.game().fen())
        try eq(hs.fen, try guest.state().fen)
        try guest.leave()
        _ = try hl.next("closed") { e -> Bool? in if case .closed = e { return true }; return nil }
        try eq(MatchPhase.closed, try waitState(host, "closed") { $0.phase == .closed }.phase)
        try check(try host.state().closedReason != nil)
        try fails(.match) { try guest.confirmCode(code: "123456") }
    }

    s.test("stored trust: a remembered player skips the code after a restart") {
        func pairOnce(_ h: Data, _ g: Data, expectCode: Bool) throws -> (Data, Data) {
            let hl = SwiftMatchListener(), gl = SwiftMatchListener()
            let host = try Match.host(playerName: "An", listenAddress: "127.0.0.1:0", advertise: false,
                                      offers: [], proposal: nil, listener: hl, trust: h)
            defer { try? host.leave() }
            let address = try hl.next("listening") { e -> String? in if case .listening(let a) = e { return a }; return nil }
            let guest = try Match.join(playerName: "Binh", address: address, listener: gl, trust: g)
            defer { try? guest.leave() }
            if expectCode {
                let code = try hl.next("code") { e -> String? in if case .verifyCode(let c, _) = e { return c }; return nil }
                try host.confirmCode(code: code)
                // The guest confirms the code it was shown (it may see it after the host does).
                let shown = try gl.next("guest code") { e -> String? in if case .verifyCode(let c, _) = e { return c }; return nil }
                try eq(code, shown)
                try guest.confirmCode(code: shown)
            }
            let asked = try hl.next("verified") { e -> Bool? in
                if case .verifyCode = e { return true }
                if case .peerVerified = e { return false }; return nil
            }
            try check(!asked, "a remembered guest must not be asked for a code again")
            return (try host.exportTrust(), try guest.exportTrust())
        }
        let (h, g) = try pairOnce(try newTrust(), try newTrust(), expectCode: true)
        try eq(19, try trustFingerprint(trust: h).count)
        _ = try pairOnce(h, g, expectCode: false)
    }

    s.test("match (chess) over loopback: fool's mate by taps, a promotion, a declined proposal") {
        let (host, hl, guest, gl) = try pair(offers: [.xiangqi, .chess],
                                              proposal: MatchOffer(game: .chess, yourColor: .red, rules: nil, startFen: nil))
        defer { try? guest.leave(); try? host.leave() }
        var hs = try waitState(host, "white's turn") { $0.yourTurn }
        try eq(GameKind.chess, hs.kind)
        // The guest offers every game it plays, the Lines race too.
        try eq(Set(boardGames() + [GameKind.lines]), Set(hs.peerGames))
        try eq(chessStart, hs.fen)
        try eq(32, hs.board?.cells.filter { $0.dark }.count)
        // f2-f3 by taps (White at the bottom: f2 is column 5, row 6).
        try eq(TapResult.selected(square: 13), try host.tap(column: 5, row: 6))
        guard case .moved = try host.tap(column: 5, row: 5) else { throw TestFailure(description: "f3 not played") }
        _ = try waitState(guest, "black's turn") { $0.yourTurn && $0.moves == ["f3"] }
        _ = try guest.play(mv: try move(.chess, "e7", "e5"))
        _ = try waitState(host, "white again") { $0.yourTurn && $0.moves.count == 2 }
        _ = try host.playText(text: "g4")
        var gs = try waitState(guest, "black again") { $0.yourTurn && $0.moves.count == 3 }
        // Qd8-h4 mate by taps on the flipped board: d8 is column 4, row 7; h4 column 0, row 3.
        try eq(TapResult.selected(square: try square(.chess, "d8")), try guest.tap(column: 4, row: 7))
        try check(gs.board != nil)
        guard case .moved = try guest.tap(column: 0, row: 3) else { throw TestFailure(description: "Qh4 not played") }
        let texts = try [hl, gl].map { l in
            try l.next("game over") { e -> String? in if case .gameOver(_, let t) = e { return t }; return nil }
        }
        try eq(["You lost: checkmate", "You won: checkmate"], texts)
        hs = try waitState(host, "over") { $0.phase == .over }
        gs = try waitState(guest, "over") { $0.phase == .over && $0.moves.count == 4 }
        try eq(Outcome.win(winner: .black, reason: .checkmate), hs.outcome)
        try eq(["f3", "e5", "g4", "Qh4#"], gs.moves)
        try eq(["You lost: checkmate", "You won: checkmate"], [hs.result, gs.result])
        try check(hs.inCheck && hs.board!.cells.contains { $0.check })

        // Another game, proposed by the host: declined, then one from a set-up position.
        let xq = MatchOffer(game: .xiangqi, yourColor: .black, rules: nil, startFen: nil)
        try host.propose(offer: xq)
        let asked = try gl.next("xiangqi proposed") { e -> MatchOffer? in if case .proposed(let o, _) = e { return o }; return nil }
        try eq(GameKind.xiangqi, asked.game)
        try eq(Color.red, asked.yourColor)
        try guest.declineProposal()
        _ = try hl.next("declined") { e -> Bool? in if case .proposalDeclined = e { return true }; return nil }
        try fails(.match) { try guest.acceptProposal() }
        let promo = "8/P6k/8/8/8/8/8/K7 w - - 0 1"
        try host.propose(offer: MatchOffer(game: .chess, yourColor: .red, rules: .chess(autoClaim: false), startFen: promo))
        let second = try gl.next("chess proposed") { e -> MatchOffer? in if case .proposed(let o, _) = e { return o }; return nil }
        try eq(promo, second.startFen)
        try guest.acceptProposal()
        hs = try waitState(host, "the second game") { $0.phase == .playing && $0.yourTurn && $0.moves.isEmpty }
        try eq(promo, hs.fen)
        try eq(TapResult.ignored, try host.choosePromotion(piece: .queen))
        try eq(TapResult.selected(square: 48), try host.tap(column: 0, row: 1))
        guard case .choosePromotion(48, 56, let choices) = try host.tap(column: 0, row: 0) else {
            throw TestFailure(description: "no promotion choice")
        }
        try eq(4, choices.count)
        try eq(TapResult.moved(played: Move(from: 48, to: 56, promotion: .queen)), try host.choosePromotion(piece: .queen))
        let promoted = try gl.next("the promotion") { e -> PlayedMove? in if case .movePlayed(let p, false) = e { return p }; return nil }
        try eq(["a8=Q", "a7a8q"], [promoted.text, promoted.coordinate])
        try eq(PieceKind.queen, try guest.game().pieceAt(square: 56)?.kind)
        _ = try waitState(guest, "black to move") { $0.yourTurn }
        try guest.resign()
        hs = try waitState(host, "resigned") { $0.phase == .over }
        try eq("You won: resignation", hs.result)
        try eq("You lost: resignation", try waitState(guest, "over") { $0.phase == .over }.result)
        // The match's copy of the game keeps the resignation: status, save, PGN.
        let copy = try host.game()
        try eq(Outcome.win(winner: .red, reason: .resignation), try copy.status().outcome)
        try eq(try copy.status().outcome, try Game.load(bytes: try copy.save()).status().outcome)
    }

    s.test("match: a rejected code closes both sides") {
        let hl = SwiftMatchListener(), gl = SwiftMatchListener()
        let host = try Match.host(playerName: "An", listenAddress: "127.0.0.1:0", advertise: false,
                                  offers: [], proposal: nil, listener: hl)
        defer { try? host.leave() }
        try eq(boardGames() + [GameKind.lines], try host.state().offers, "empty offers: every game and the Lines race")
        let address = try hl.next("listening") { e -> String? in if case .listening(let a) = e { return a }; return nil }
        let guest = try Match.join(playerName: "Binh", address: address, listener: gl)
        defer { try? guest.leave() }
        _ = try gl.next("code") { e -> Bool? in if case .verifyCode = e { return true }; return nil }
        try fails(.match) { _ = try guest.tap(column: 0, row: 0) }
        try fails(.match) { _ = try guest.game() }
        try eq(nil, try guest.yourColor())
        try guest.rejectCode()
        _ = try gl.next("closed") { e -> Bool? in if case .closed = e { return true }; return nil }
        // A device that was never confirmed cannot end the host's match: it listens on.
        _ = try hl.next("disconnected") { e -> Bool? in if case .disconnected = e { return true }; return nil }
        try eq(MatchPhase.listening, try waitState(host, "listening") { $0.phase == .listening }.phase)
    }
}

final class SwiftLobbyListener: LobbyListener, @unchecked Sendable {
    let found = Inbox<LobbyPeer>()
    func onPeerFound(peer: LobbyPeer) { found.put(peer) }
    func onPeerUpdated(peer: LobbyPeer) {}
    func onPeerLost(id: String) {}
    func onError(message: String) {}
}

/// Waits until `condition` holds (polling), up to `seconds`.
func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}

func lobbyTests(_ s: Suite) {
    s.test("lobby on loopback: start, browse, advertise, withdraw, stop") {
        // Multicast may be missing in a container: then every call fails as a network problem.
        try mayFail(.network) {
            let lobby = try Lobby(interfaces: ["lo"])
            try lobby.browse(listener: SwiftLobbyListener())
            try mayFail(.network) { try lobby.withdraw(id: try lobby.advertise(playerName: "Chi", port: 7368)) }
            // A name with nothing to show is refused as Match.host refuses it.
            try fails(.invalidArgument) { _ = try lobby.advertise(playerName: " \u{200b}", port: 7368) }
            try lobby.stop()
            try lobby.withdraw(id: "x") // stop withdrew every advertisement: nothing to do
            // Browsing (or advertising) after stop starts mDNS again.
            try mayFail(.network) { try lobby.browse(listener: SwiftLobbyListener()) }
            try lobby.stop()
            try mayFail(.network) { _ = try lobby.advertise(playerName: "Chi", port: 1) }
            try lobby.stop()
        }
    }
}
