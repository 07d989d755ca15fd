// What the match screen and the game screen reach beyond one hosted game: either side
// proposes the next game from Settings, a finished match game is saved (with how it ended)
// and shared, joining by address runs off the UI thread, and the editor opens on the
// position of the game against the computer.
import Foundation
import BancoKit

/// Results handed over by another thread.
private final class Inbox<T> {
    private let lock = NSLock()
    private var items: [T] = []
    func put(_ t: T) { lock.lock(); items.append(t); lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return items.count }

    func next(_ what: String) throws -> T {
        let deadline = Date().addingTimeInterval(30)
        while true {
            lock.lock()
            if !items.isEmpty { defer { lock.unlock() }; return items.removeFirst() }
            lock.unlock()
            if Date() > deadline { throw TestFailure(description: "timed out waiting for \(what)") }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}

func matchMoreTests(_ s: Suite) {
    s.test("after a game the guest proposes chess from its Settings (with a clock), the host accepts, chess starts on both") {
        let (host, guest) = try paired(Settings(game: .xiangqi, color: .red, playerName: "An"))
        defer { guest.leave(); host.leave() }
        try host.tap("h2", "e2")
        try guest.wait("the host's move") { $0.moves.count == 1 }
        host.act { $0.resign() }
        let over = try guest.wait("game over") { $0.phase == .over }
        try host.wait("game over") { $0.phase == .over }
        try check(over.canPropose, "Rust shows the propose control after a game")
        // The guest wants chess, White, 10+5.
        let guestSettings = Settings(game: .chess, color: .red, playerName: "Binh", clock: "10+5")
        guest.act { $0.propose(guestSettings) }
        let asked = try host.wait("the guest's proposal") { $0.phase == .proposed }
        try eq(GameKind.chess, asked.proposal?.game, "the host is asked about chess")
        try eq("You play Black\nClock: 10:00 + 5s", asked.offeredTerms, "in Rust's words")
        // Play accepts the proposal shown (its number) and no other: another number is
        // refused in Rust's words, nothing accepted.
        guard let id = asked.proposalId else { throw TestFailure(description: "no proposal number: \(asked)") }
        host.act { $0.acceptOffer(id + 1) }
        let refused = host.state
        try check(refused.message?.contains("changed the proposal: look again") == true, refused.message ?? "")
        try eq(MatchPhase.proposed, refused.match?.phase, "nothing accepted")
        host.act { $0.acceptOffer(id) }
        let hs = try host.wait("chess on the host") { $0.phase == .playing }
        let gs = try guest.wait("chess on the guest") { $0.phase == .playing }
        try eq(GameKind.chess, hs.kind)
        try eq(GameKind.chess, gs.kind)
        try eq(Color.red, gs.yourColor, "the guest plays White as proposed")
        try eq(Color.black, hs.yourColor)
        try check(gs.yourTurn && !hs.yourTurn && gs.moves.isEmpty, "\(gs) / \(hs)")
        try eq("10:00", hs.clockFaces?.you.text, "the proposal's clock on the host")
        try eq("10:00", gs.clockFaces?.opponent.text, "and on the guest")
    }

    s.test("a match game ended by resignation is saved with its result, listed, opened and shared as PGN") {
        let (host, guest) = try paired(Settings(game: .xiangqi, color: .red, playerName: "An"))
        defer { guest.leave(); host.leave() }
        try host.tap("h2", "e2")
        try guest.wait("the host's move") { $0.moves.count == 1 }
        guard let running = guest.ui.call({ guest.model.saved() }) else {
            throw TestFailure(description: "a running game has a record")
        }
        try eq("*", try Game.load(bytes: running).status().result, "a running game's record goes on")
        guest.act { $0.resign() }
        let over = try host.wait("over") { $0.phase == .over }
        guard let saved = host.ui.call({ host.model.saved() }) else {
            throw TestFailure(description: "a finished game has a record")
        }
        let status = try Game.load(bytes: saved).status()
        try eq("1-0", status.result, "Red (the host) won by resignation")
        try check(status.resultText.contains("resign"), status.resultText)
        let records = MatchRecords(store: MemoryStore())
        try eq("Saved (Saved matches)", records.save(saved))
        let listed = records.list()
        try eq(1, listed.count)
        // Past the limit the oldest makes room, and the words say which (not silently).
        let more = MatchRecords(store: MemoryStore())
        for _ in 0..<MatchRecords.limit { try check(!more.save(saved).contains("oldest")) }
        let full = more.save(saved)
        try check(full.contains("oldest went: \(listed[0].label)"), full)
        try eq(MatchRecords.limit, more.list().count)
        // A list this shell saved before Rust kept it (Base64 joined by commas) reads as it
        // was; its damaged record is left out of the list.
        let old = MemoryStore()
        old.set("match.records", [saved, Data([1, 2, 3]), running].map { $0.base64EncodedString() }.joined(separator: ","))
        let oldList = MatchRecords(store: old).list()
        try eq(["Xiangqi · 1-0 resignation · 1 ply", "Xiangqi · unfinished · 1 ply"], oldList.map { $0.label })
        try eq(running, oldList[1].saved)
        try eq("Xiangqi · 1-0 resignation · 1 ply", listed[0].label, "Rust's label, in the singular")
        // Opened as "Saved matches" opens it: the game with its move and its ending.
        let f = VsFixture()
        defer { f.close() }
        try check(f.ui.call { f.model.openSaved(listed[0].saved, settings: Settings(level: 1), movetimeMs: 50) })
        let reopened = try f.myTurn(1)
        try eq(GameKind.xiangqi, reopened.kind)
        try eq(1, reopened.moves.count, "the match's move")
        try eq(over.outcome, reopened.outcome, "the resignation is kept")
        let date = Date(timeIntervalSince1970: 1_796_400_000) // 2026-12-04 UTC
        let utc = TimeZone(identifier: "UTC") ?? .current
        let pgn = try MatchRecords.pgn(saved, over, playerName: "An", date: date, timeZone: utc)
        try check(pgn.contains("[Result \"1-0\"]"), pgn)
        try check(pgn.contains("[Red \"An\"]") && pgn.contains("[Black \"Binh\"]"), pgn)
        try check(pgn.contains("[Date \"2026.12.04\"]"), pgn)
        // From the guest's side: the local player (Binh) plays Black.
        let guestOver = try guest.wait("over") { $0.phase == .over }
        try eq(Color.black, guestOver.yourColor)
        guard let guestSaved = guest.ui.call({ guest.model.saved() }) else {
            throw TestFailure(description: "the guest's record")
        }
        let guestPgn = try MatchRecords.pgn(guestSaved, guestOver, playerName: "Binh", date: date, timeZone: utc)
        try check(guestPgn.contains("[Red \"An\"]") && guestPgn.contains("[Black \"Binh\"]"), guestPgn)
        try check(guestPgn.contains("[Result \"1-0\"]"), guestPgn)
    }

    s.test("join by address runs off the UI thread: the model or the error comes through the dispatcher") {
        let ui = TestUI()
        // A closed loopback port: bound, then closed, so nobody listens there.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        close(fd)
        let port = UInt16(bigEndian: addr.sin_port)
        let pending = Inbox<() -> Void>()
        let results = Inbox<(Result<MatchModel, Error>, Bool)>()
        let onUI = DispatchSpecificKey<Bool>()
        ui.queue.setSpecific(key: onUI, value: true)
        func join(_ address: String) {
            ui.call {
                MatchModel.joinInBackground(ui: ui, name: "Binh", address: address, background: { pending.put($0) }) {
                    results.put(($0, DispatchQueue.getSpecific(key: onUI) == true))
                }
            }
        }
        join("127.0.0.1:\(port)")
        try eq(1, pending.count, "the join waits for the worker")
        try eq(0, results.count, "the caller is not blocked: nothing came back yet")
        Thread.detachNewThread(try pending.next("the worker"))
        let (made, madeOnUI) = try results.next("the model")
        try check(madeOnUI, "delivered on the UI thread")
        let m = try made.get()
        defer { ui.call { m.leave() } }
        _ = try ui.wait("the refusal shown", { m.state.match?.banner }) { $0?.hasPrefix("Cannot reach the other device") == true }
        // An address that is no address: the error, through the dispatcher too.
        join("not an address")
        Thread.detachNewThread(try pending.next("the worker"))
        let (failed, failedOnUI) = try results.next("the error")
        try check(failedOnUI, "the error on the UI thread")
        guard case .failure(let e) = failed, e is BancoError else {
            throw TestFailure(description: "expected a BancoError: \(failed)")
        }
    }

    s.test("set up from this position: the editor opens on the game's current position") {
        let f = VsFixture()
        f.ui.call { _ = f.model.newGame(Settings(game: .chess, level: 1, color: .red), movetimeMs: 50) }
        try f.myTurn(0)
        try f.tapFirstLegal()
        try f.myTurn(2)
        try f.tapFirstLegal()
        let st = try f.myTurn(4)
        let ed = EditorModel(ui: f.ui)
        guard let saved = f.ui.call({ f.model.saved() }) else { throw TestFailure(description: "a game on screen") }
        try check(f.ui.call { ed.open(saved: saved) })
        // The position (board, side to move, castling, en passant); the editor sets up a
        // position, so its move counters start again ("0 1").
        func position(_ fen: String?) -> [Substring] { Array((fen ?? "").split(separator: " ").prefix(4)) }
        try eq(position(st.fen), position(f.ui.call { ed.state.view?.fen }), "the editor's FEN is the game's")
        try check(position(st.fen) != position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), "moves were played")
        f.ui.call { ed.close(); f.model.close() }
    }

    s.test("editor: chess castling rights and the en-passant square, checked by Rust") {
        let ui = TestUI()
        let ed = EditorModel(ui: ui)
        let afterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        try check(ui.call { ed.open(.chess, fen: afterE4) })
        func fen() -> String { ui.call { ed.state.view?.fen ?? "" } }
        ui.call { ed.setEnPassant("e3") }
        try check(fen().contains(" b KQkq e3 "), fen())
        ui.call { ed.setCastling(.red, kingSide: true, allowed: false) }
        try check(fen().contains(" b Qkq e3 "), fen())
        try eq([], ui.call { ed.state.view?.problems.map { $0.text } ?? ["no view"] }, "e3 is right")
        ui.call { ed.setEnPassant("d3") }
        try check(fen().contains(" d3 "), fen())
        try check(!(ui.call { ed.state.view?.problems ?? [] }).isEmpty, "no pawn passed over d3: Rust lists the problem")
        ui.call { ed.setEnPassant("z9") }
        try check(ui.call { ed.state.message } != nil, "no such square: refused")
        ui.call { ed.clearMessage() }
        ui.call { ed.setEnPassant("") }
        try check(fen().contains(" b Qkq - "), fen())
        ui.call { ed.close() }
    }
}
