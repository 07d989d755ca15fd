// Engine and Match from Swift: a whole game against the AI, hints, puzzles, and a LAN
// match between two Match objects over loopback in one process.
import Foundation

/// A thread-safe queue of values delivered by listener callbacks on Rust threads.
final class Inbox<T>: @unchecked Sendable {
    private let cond = NSCondition()
    private var items: [T] = []
    private(set) var all: [T] = []

    func put(_ item: T) {
        cond.lock()
        items.append(item)
        all.append(item)
        cond.signal()
        cond.unlock()
    }

    /// The next item matching `pick` (others are skipped), waiting up to `seconds`.
    func next<R>(_ seconds: Double = 30, _ pick: (T) -> R?) throws -> R {
        let deadline = Date().addingTimeInterval(seconds)
        cond.lock()
        defer { cond.unlock() }
        while true {
            while !items.isEmpty {
                let item = items.removeFirst()
                if let r = pick(item) { return r }
            }
            if !cond.wait(until: deadline) {
                throw TestFailure(description: "timed out; saw \(all)")
            }
        }
    }
}

final class SwiftEngineListener: EngineListener, @unchecked Sendable {
    let results = Inbox<SearchReport>()
    let progress = Inbox<SearchReport>()
    let puzzles = Inbox<PuzzleSolution>()
    func onProgress(report: SearchReport) { progress.put(report) }
    func onResult(report: SearchReport) { results.put(report) }
    func onPuzzleSolved(solution: PuzzleSolution) { puzzles.put(solution) }
    func onFailed(searchId: UInt64, message: String) { print("engine failure \(searchId): \(message)") }
}

final class SwiftMatchListener: MatchListener, @unchecked Sendable {
    let events = Inbox<MatchEvent>()
    func onEvent(event: MatchEvent) { events.put(event) }
}

func engineMatchTests(_ s: Suite) {
    s.test("a whole game against the AI") {
        let engine = try Engine(hashMib: 16)
        let g = try Game(kind: .xiangqi)
        let listener = SwiftEngineListener()
        while try g.status().outcome == nil && (try g.status().ply) < 400 {
            if try g.status().sideToMove == .red {
                _ = try g.play(mv: try g.legalMoves()[0])
            } else {
                let id = try engine.bestMove(game: g, level: 4, listener: listener)
                let r = try listener.results.next { $0 }
                try eq(id, r.searchId)
                guard let best = r.bestMove else { throw TestFailure(description: "no AI move") }
                _ = try g.play(mv: best.played)
            }
        }
        let st = try g.status()
        try check(st.outcome != nil, "the game did not end")
        print("  game over after \(st.ply) plies: \(st.resultText)")
    }

    s.test("think, hint, stop, puzzle") {
        let engine = try Engine(hashMib: 8)
        let g = try Game.fromFen(fen: "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1")
        let r = try engine.think(game: g, level: 10, movetimeMs: 500)
        try eq("e1d1", r.bestMove?.coordinate)
        try eq(EngineScore.mate(moves: 1), r.score)
        let listener = SwiftEngineListener()
        _ = try engine.hint(game: g, movetimeMs: 300, listener: listener)
        let hint = try listener.results.next { $0 }
        try eq("R5=6", hint.pvWxf.first)
        _ = try engine.solvePuzzle(game: g, maxMoves: 3, timeLimitMs: 5000, listener: listener)
        let sol = try listener.puzzles.next { $0 }
        try eq(1, sol.mateIn)
        let start = try Game(kind: .xiangqi)
        _ = try engine.bestMoveTimed(game: start, movetimeMs: 60_000, listener: listener)
        Thread.sleep(forTimeInterval: 0.2)
        try engine.stop()
        try check(try listener.results.next { $0 }.stopped)
        for level: UInt8 in [0, 11, 255] {
            let e = try throwsBanco { _ = try engine.bestMove(game: start, level: level, listener: listener) }
            try check(message(e).contains("levels go from 1"), message(e))
        }
        try throwsBanco { _ = try Engine(hashMib: 0) }
        try throwsBanco { _ = try engine.solvePuzzle(game: g, maxMoves: 0, timeLimitMs: 10, listener: listener) }
    }

    s.test("a LAN match between two Match objects over loopback") {
        let hl = SwiftMatchListener()
        let gl = SwiftMatchListener()
        let host = try Match.host(playerName: "An", listenAddress: "127.0.0.1:0", advertise: false,
                                  hostColor: .red, repetition: .asian, listener: hl)
        let address = try hl.events.next { (e: MatchEvent) -> String? in if case .listening(let a) = e { return a }; return nil }
        let guest = try Match.join(playerName: "Binh", address: address, listener: gl)
        defer {
            try? guest.leave()
            try? host.leave()
        }
        let hc = try hl.events.next { (e: MatchEvent) -> String? in if case .verifyCode(let c, _) = e { return c }; return nil }
        let gc = try gl.events.next { (e: MatchEvent) -> String? in if case .verifyCode(let c, _) = e { return c }; return nil }
        try eq(hc, gc, "same code on both phones")
        try host.confirmCode()
        try guest.confirmCode()
        let color = try gl.events.next { (e: MatchEvent) -> Color? in if case .proposed(let c, _) = e { return c }; return nil }
        try eq(Color.black, color)
        try guest.acceptProposal()
        _ = try hl.events.next { (e: MatchEvent) -> Bool? in if case .started = e { return true }; return nil }
        _ = try gl.events.next { (e: MatchEvent) -> Bool? in if case .started = e { return true }; return nil }
        try host.playText(text: "C2=5", notation: .wxf)
        let seen = try gl.events.next { (e: MatchEvent) -> String? in if case .movePlayed(let p, _, _) = e { return p.coordinate }; return nil }
        try eq("h2e2", seen)
        try guest.playText(text: "马8进7", notation: .chinese)
        let back = try hl.events.next { e -> String? in
            if case .movePlayed(let p, _, let mine) = e, !mine { return p.coordinate }
            return nil
        }
        try eq("h9g7", back)
        try host.offerDraw()
        _ = try gl.events.next { (e: MatchEvent) -> Bool? in if case .drawOffered = e { return true }; return nil }
        try guest.replyDraw(accept: true)
        let outcome = try hl.events.next { (e: MatchEvent) -> Outcome? in if case .gameOver(let o, _) = e { return o }; return nil }
        try eq(Outcome.draw(reason: .agreement), outcome)
        try eq(try host.game().fen(), try guest.game().fen())
    }
}

final class SwiftLobbyListener: LobbyListener, @unchecked Sendable {
    let found = Inbox<LobbyPeer>()
    func onPeerFound(peer: LobbyPeer) { found.put(peer) }
    func onPeerUpdated(peer: LobbyPeer) {}
    func onPeerLost(id: String) {}
    func onError(message: String) {}
}

func lobbyAndErrorTests(_ s: Suite) {
    s.test("match, lobby and engine garbage") {
        let l = SwiftMatchListener()
        for addr in garbageStrings + ["999.1.1.1:1", "127.0.0.1:99999", "[::1"] {
            try throwsBanco { _ = try Match.host(playerName: "An", listenAddress: addr, advertise: false,
                                                 hostColor: .red, repetition: .asian, listener: l) }
        }
        for addr in garbageStrings {
            try tolerate("join") { try Match.join(playerName: "An", address: addr, listener: l).leave() }
        }
        for name in ["", "   ", String(repeating: "x", count: 100)] {
            try throwsBanco { _ = try Match.join(playerName: name, address: "127.0.0.1:1", listener: l) }
        }
        let nowhere = LobbyPeer(id: "id", name: "Nobody", games: [.xiangqi], protocolVersion: nil,
                                fingerprint: "", host: "h", port: 1, addresses: ["not an address"])
        try throwsBanco { _ = try Match.joinPeer(playerName: "An", peer: nowhere, listener: l) }
        // The lobby on loopback: start, browse, advertise, withdraw, stop.
        try tolerate("lobby") {
            let lobby = try Lobby(interfaces: ["lo"])
            try lobby.browse(listener: SwiftLobbyListener())
            try tolerate("advertise") { try lobby.withdraw(id: try lobby.advertise(playerName: "Chi", port: 7368)) }
            try lobby.stop()
            try throwsBanco { _ = try lobby.advertise(playerName: "Chi", port: 1) }
        }
        let engine = try Engine(hashMib: 1)
        try check(!(try engine.isSearching()))
        try engine.clear()
        let g = try Game(kind: .xiangqi)
        for t: UInt64 in [0, UInt64.max] {
            try throwsBanco { _ = try engine.think(game: g, level: 5, movetimeMs: t) }
        }
        // A Match's game() is a separate Game the engine can think about.
        try eq(44, try g.copy().legalMoves().count)
    }
}
