// The lobby list, and matches between two MatchModels over 127.0.0.1 in one process (no
// multicast: the lobby model is fed the host with its real address): xiangqi with undo and
// draw offers, chess with fool's mate and a second game proposed by each side.
import Foundation
import BancoKit

func peer(_ id: String, _ name: String, _ address: String = "127.0.0.1:1",
          games: [GameKind] = [.xiangqi, .chess]) -> LobbyPeer {
    LobbyPeer(id: id, name: name, games: games, protocolVersion: 1, fingerprint: "", host: "\(name).local",
              port: UInt16(address.split(separator: ":").last!)!, addresses: [address])
}

/// A player of the nearby list seen on the LAN only, as Rust's NearbyLobby reports it.
func lanPlayer(_ p: LobbyPeer) -> NearbyPlayer {
    NearbyPlayer(key: "lan:\(p.id)", name: p.name, games: p.games, protocolVersion: p.protocolVersion,
                 fingerprint: p.fingerprint, transports: [.lan], preferred: .lan, lan: p, bleDevice: nil)
}

/// One side of a match: its model on its own UI queue.
final class Side {
    let ui = TestUI()
    let sounds = SoundLog()
    var model: MatchModel!

    var state: MatchModel.State { ui.call { model.state } }

    @discardableResult
    func wait(_ what: String, _ want: @escaping (MatchState) -> Bool) throws -> MatchState {
        try ui.wait(what, { self.model.state.match }) { $0.map(want) ?? false }!
    }

    /// Taps the cells showing the squares named `names`, in order.
    func tap(_ names: String...) throws {
        for n in names {
            let c = try cell(state.match?.board, n)
            ui.call { model.tap(column: Int(c.column), row: Int(c.row)) }
        }
    }

    /// Waits until the sounds played so far satisfy `want`: a sound comes with its event,
    /// which the UI queue may handle after a state read already showed the change.
    @discardableResult
    func heard(_ what: String, _ want: @escaping ([Sound]) -> Bool) throws -> [Sound] {
        try ui.wait(what, { self.sounds.all }, until: want)
    }

    func act(_ body: (MatchModel) -> Void) { ui.call { body(model) } }
    func leave() { ui.call { model?.leave() } }
}

/// A host with `settings` and a guest found through the lobby, codes confirmed, the host's
/// proposal accepted: both playing.
func paired(_ settings: Settings, terms: String? = nil) throws -> (host: Side, guest: Side) {
    let host = Side(), guest = Side()
    host.model = try host.ui.call {
        try MatchModel.host(ui: host.ui, settings: settings, address: "127.0.0.1:0", advertise: false, sound: host.sounds)
    }
    let address = try host.wait("listening") { $0.phase == .listening }.address
    let lobby = LobbyModel(ui: guest.ui)
    lobby.playerFound(lanPlayer(peer("An@host", settings.playerName, address)))
    let found = try guest.ui.wait("the host listed", { lobby.state }) { !$0.players.isEmpty }.players[0]
    try eq([GameKind.xiangqi, .chess], found.games, "the lobby shows the host's games")
    guest.model = try guest.ui.call { try lobby.join(found, settings: Settings(playerName: "Binh"), sound: guest.sounds) }
    let hv = try host.wait("host code") { $0.phase == .verify }
    let gv = try guest.wait("guest code") { $0.phase == .verify }
    try eq(hv.code, gv.code, "same code")
    try check(hv.code?.count == 6)
    try eq("Binh", hv.peerName)
    try eq(settings.playerName, gv.peerName)
    host.act { $0.confirmCode(hv.code!) }
    guest.act { $0.confirmCode(gv.code!) }
    let proposed = try guest.wait("proposal") { $0.phase == .proposed }
    try eq(settings.game, proposed.proposal?.game)
    try eq(settings.color == .red ? Color.black : .red, proposed.proposal?.yourColor)
    try eq(settings.gameRules ?? defaultRules(kind: settings.game), proposed.proposal?.rules)
    try eq(Set([GameKind.xiangqi, .chess, .jieqi]), Set(proposed.peerGames))
    if let terms { try eq(terms, proposed.offeredTerms, "the accept prompt's words (Rust's, as on Android)") }
    guard let id = proposed.proposalId else { throw TestFailure(description: "no proposal number: \(proposed)") }
    guest.act { $0.acceptOffer(id) }
    try host.wait("host playing") { $0.phase == .playing }
    try guest.wait("guest playing") { $0.phase == .playing }
    return (host, guest)
}

func matchTests(_ s: Suite) {
    s.test("lobby: players with their games found, updated and lost; discovery errors") {
        let ui = TestUI()
        let lobby = LobbyModel(ui: ui)
        let group = DispatchGroup()
        for (i, name) in ["Chi", "an", "Binh"].enumerated() {
            DispatchQueue.global().async(group: group) { lobby.playerFound(lanPlayer(peer("id\(i)", name))) }
        }
        group.wait()
        var st = try ui.wait("three players", { lobby.state }) { $0.players.count == 3 }
        try eq(["an", "Binh", "Chi"], st.players.map { $0.name })
        lobby.playerFound(lanPlayer(peer("id1", "An", games: [.chess])))
        lobby.playerLost("lan:id2")
        st = try ui.wait("update and loss", { lobby.state }) { $0.players.count == 2 && $0.players[0].name == "An" }
        try eq(["An", "Chi"], st.players.map { $0.name })
        try eq([[GameKind.chess], [.xiangqi, .chess]], st.players.map { $0.games })
        try eq("Chess", LobbyModel.gamesText(st.players[0]))
        try eq("LAN", LobbyModel.transportsText(st.players[0]))
        ui.call { lobby.start { _ in throw BancoError.Network(message: "no Wi-Fi") } }
        st = ui.call { lobby.state }
        try check(!st.discovering && st.error == "no Wi-Fi", "\(st)")
    }

    /// A Keychain before the first unlock: every call throws.
    final class LockedSecrets: SecretStore {
        struct Locked: Error, CustomStringConvertible { var description: String { "the Keychain is locked" } }
        func data(_ key: String) throws -> Data? { throw Locked() }
        func set(_ key: String, _ data: Data?) throws { throw Locked() }
    }

    s.test("the device's key moves once from the defaults into the secret store; kept bytes that cannot be read are set aside for a fresh identity") {
        // Rust's TrustKeeper over this shell's stores (its keys, as this shell always kept them).
        let trustKey = "match.trust", setAside = "match.trust.damaged"
        let defaults = MemoryStore(), secrets = MemorySecrets()
        let bytes = try newTrust()
        defaults.set(trustKey, bytes.base64EncodedString())
        defaults.set("other", "stays")
        let keeper = trustKeeper(secrets: secrets, legacy: defaults)
        try eq(try trustFingerprint(trust: bytes), try trustFingerprint(trust: try keeper.load()!), "the same identity")
        try eq(nil, defaults.string(trustKey), "gone from the backed-up defaults")
        try eq("stays", defaults.string("other"))
        try eq(bytes, try secrets.data(trustKey))
        // Later runs read the secret store; a newer confirmed code is kept there.
        let next = try newTrust()
        trustKeeper(secrets: secrets, legacy: defaults).save(bytes: next)
        try eq(next, try trustKeeper(secrets: secrets, legacy: defaults).load())
        // Damaged text in the defaults: set aside in the secret store (never deleted, never
        // left in the backed-up defaults), a fresh identity, said once.
        let fresh = MemorySecrets()
        defaults.set(trustKey, "%%% not base64")
        let damaged = trustKeeper(secrets: fresh, legacy: defaults)
        try eq(nil, try damaged.load(), "a fresh identity instead of a dead end")
        try eq(Data("%%% not base64".utf8), try fresh.data(setAside))
        try eq(nil, defaults.string(trustKey))
        try eq(nil, defaults.string(setAside))
        try check(damaged.takeNotice()?.contains("set aside") == true, "the player is told")
        try eq(nil, damaged.takeNotice(), "said once")
        // Bytes Rust refuses are set aside in the secret store; the first ones set aside stay.
        let aside = try fresh.data(setAside)
        try fresh.set(trustKey, Data([1, 2, 3]))
        try eq(nil, try damaged.load())
        try eq(aside, try fresh.data(setAside))
        try eq(nil, try fresh.data(trustKey))
        try check(damaged.takeNotice() != nil, "told again")
        let other = MemorySecrets()
        try other.set(trustKey, Data([4, 5]))
        let refused = trustKeeper(secrets: other)
        try eq(nil, try refused.load())
        try eq(Data([4, 5]), try other.data(setAside), "as they were stored")
        // A Keychain that cannot be read: the load throws (no new identity over the real one).
        let locked = LockedSecrets()
        do {
            _ = try trustKeeper(secrets: locked).load()
            throw TestFailure(description: "a locked Keychain must throw")
        } catch let e as BancoError {
            try check(readable(e).contains("locked"), readable(e))
        }
        // A good identity is read as it is, with nothing to say.
        try fresh.set(trustKey, bytes)
        try eq(bytes, try damaged.load())
        try eq(nil, damaged.takeNotice())
    }

    s.test("a remembered player skips the code in the next match (trust kept in each store); another key is a warning to close") {
        let hostTrust = trustKeeper(secrets: MemorySecrets()), guestTrust = trustKeeper(secrets: MemorySecrets())
        for round in 1...2 {
            let host = Side(), guest = Side()
            host.model = try host.ui.call {
                try MatchModel.host(ui: host.ui, settings: Settings(playerName: "An"), address: "127.0.0.1:0",
                                    advertise: false, trust: hostTrust.load(), onTrust: hostTrust.save)
            }
            let address = try host.wait("listening") { $0.phase == .listening }.address
            guest.model = try guest.ui.call {
                try MatchModel.join(ui: guest.ui, name: "Binh", address: address, trust: guestTrust.load(),
                                    onTrust: guestTrust.save)
            }
            if round == 1 {
                let hv = try host.wait("host code") { $0.phase == .verify }
                let gv = try guest.wait("guest code") { $0.phase == .verify }
                host.act { $0.confirmCode(hv.code!) }
                guest.act { $0.confirmCode(gv.code!) }
            }
            // In round 2 nobody confirms a code: the proposal can only come if both remembered.
            try guest.wait("the proposal, round \(round)") { $0.phase == .proposed }
            // Each side stores its trust when its UI queue handles PeerVerified, which may come
            // just after the guest sees the proposal (the host's event is on its way).
            _ = try host.ui.wait("both kept their trust", {
                (try? hostTrust.load()) != nil && (try? guestTrust.load()) != nil
            }, until: { $0 })
            guest.leave()
            host.leave()
        }
        // "Binh" comes back with another key (a reinstall, or someone impersonating them): the
        // host's warning, in Rust's words, waits in State.keyWarning for an alert the player
        // closes; it is not the passing notice.
        let host = Side(), guest = Side()
        defer { guest.leave(); host.leave() }
        host.model = try host.ui.call {
            try MatchModel.host(ui: host.ui, settings: Settings(playerName: "An"), address: "127.0.0.1:0",
                                advertise: false, trust: hostTrust.load(), onTrust: hostTrust.save)
        }
        let address = try host.wait("listening") { $0.phase == .listening }.address
        guest.model = try guest.ui.call { try MatchModel.join(ui: guest.ui, name: "Binh", address: address) }
        try host.wait("the code compared again") { $0.phase == .verify }
        let warned = try host.ui.wait("the warning", { host.model.state }) { $0.keyWarning != nil }
        try check(warned.keyWarning?.contains("Binh") == true && warned.keyWarning?.contains("different key") == true,
                  "\(String(describing: warned.keyWarning))")
        try eq(nil, warned.match?.notice, "not a passing notice")
        host.ui.call { host.model.clearKeyWarning() }
        try eq(nil, host.state.keyWarning)
    }

    s.test("xiangqi match between two models: code, proposal, taps, undo, draw offers, resign") {
        let (host, guest) = try paired(Settings(game: .xiangqi, rules: "casual", playerName: "An"),
                                       terms: "You play Black\nRules: Casual (only perpetual check loses)\nClock: untimed")
        defer { guest.leave(); host.leave() }
        var hs = try host.wait("host's turn") { $0.yourTurn }
        var gs = try guest.wait("guest waits") { !$0.yourTurn }
        try check(gs.board?.flipped == true && hs.board?.flipped == false)
        try host.tap("h2", "e2")
        gs = try guest.wait("the host's move") { $0.moves.count == 1 && $0.yourTurn }
        try eq(["炮二平五"], gs.moves)
        try guest.tap("h9", "g7")
        hs = try host.wait("the guest's move") { $0.moves.count == 2 }
        guest.act { $0.requestUndo() }
        try host.wait("undo request") { $0.undoRequest != nil }
        host.act { $0.replyUndo(true) }
        gs = try guest.wait("undone") { $0.moves.count == 1 && $0.yourTurn }
        try eq(nil, try host.wait("answered") { $0.undoRequest == nil }.undoRequest)
        host.act { $0.offerDraw() }
        try guest.wait("draw offer") { $0.drawOffered }
        guest.act { $0.replyDraw(false) }
        hs = try host.wait("declined") { $0.notice != nil }
        try check(hs.notice!.contains("declined"), hs.notice!)
        host.act { $0.clearNotice() }
        try eq(nil, host.state.match?.notice)
        guest.act { $0.claimDraw() }
        try check(guest.state.message != nil, "no draw to claim: the refusal is shown")
        guest.act { $0.clearNotice() }
        try eq(nil, guest.state.message)
        guest.act { $0.resign() }
        hs = try host.wait("over") { $0.phase == .over }
        gs = try guest.wait("over") { $0.phase == .over }
        try eq("You won: resignation", hs.result)
        try eq("You lost: resignation", gs.result)
        try check(try host.heard("the end's sound") { $0.last == .gameOver }.contains(.move))
    }

    s.test("chess match between two models: fool's mate by taps, results from both sides, a second game") {
        let (host, guest) = try paired(Settings(game: .chess, color: .red, playerName: "An"))
        defer { guest.leave(); host.leave() }
        let hs0 = try host.wait("white's turn") { $0.yourTurn }
        try eq(GameKind.chess, hs0.kind)
        try eq(32, hs0.board?.cells.filter { $0.dark }.count)
        try eq(Color.black, try guest.wait("black") { $0.yourColor != nil }.yourColor)
        try host.tap("f2", "f3")
        try guest.wait("f3 seen") { $0.yourTurn && $0.moves == ["f3"] }
        try guest.tap("e7", "e5")
        try host.wait("e5 seen") { $0.yourTurn && $0.moves.count == 2 }
        try host.tap("g2", "g4")
        try guest.wait("g4 seen") { $0.yourTurn && $0.moves.count == 3 }
        try guest.tap("d8", "h4")
        let hs = try host.wait("mated") { $0.phase == .over }
        let gs = try guest.wait("mated") { $0.phase == .over && $0.moves.count == 4 }
        try eq(["f3", "e5", "g4", "Qh4#"], gs.moves)
        try eq(["You lost: checkmate", "You won: checkmate"], [hs.result, gs.result])
        try eq(Outcome.win(winner: .black, reason: .checkmate), hs.outcome)
        let king = try cell(hs.board, "e1")
        try check(hs.inCheck && king.check, "the mated king is marked")
        try eq([Sound.move, .move, .move, .check, .gameOver],
               try guest.heard("the end's sound") { $0.last == .gameOver })

        // The guest proposes the game again, colours swapped (declined), then the host
        // proposes one of its own (accepted).
        guest.act { $0.proposeRematch() }
        try check(guest.state.message == nil, "\(guest.state)")
        let proposed = try host.wait("the guest's proposal") { $0.phase == .proposed }
        try eq(GameKind.chess, proposed.proposal?.game)
        try eq(Color.black, proposed.proposal?.yourColor, "the host played White: Black now")
        host.act { $0.declineProposal() }
        _ = try guest.wait("declined") { $0.notice != nil }
        guest.act { $0.clearNotice() }
        host.act { $0.propose(Settings(game: .chess, color: .black)) }
        _ = try guest.wait("the host's proposal") { $0.phase == .proposed }
        guest.act { $0.acceptOffer($0.state.match!.proposalId!) }
        try guest.wait("White to play") { $0.phase == .playing && $0.yourTurn && $0.moves.isEmpty }
        try check(try host.wait("flipped for Black") { $0.phase == .playing }.board?.flipped == true)
        try guest.tap("e2", "e4")
        try host.wait("e4 seen") { $0.yourTurn && $0.moves == ["e4"] }
        host.act { $0.resign() }
        try eq("You won: resignation", try guest.wait("over") { $0.phase == .over }.result)
        guest.leave()
        try eq(MatchPhase.closed, try host.wait("closed") { $0.phase == .closed }.phase)
    }
}
