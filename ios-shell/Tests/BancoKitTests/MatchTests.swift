// The lobby list and a LAN match between two models over loopback in one process (no
// multicast: the lobby model is fed the host with its real address).
import Foundation
import BancoKit

func peer(_ id: String, _ name: String, _ address: String = "127.0.0.1:1") -> LobbyPeer {
    LobbyPeer(id: id, name: name, games: [.xiangqi], protocolVersion: 1, fingerprint: "", host: "\(name).local",
              port: UInt16(address.split(separator: ":").last!)!, addresses: [address])
}

func matchTests(_ s: Suite) {
    s.test("lobby: peers found, updated and lost; discovery errors") {
        let ui = TestUI()
        let lobby = LobbyModel(ui: ui)
        let group = DispatchGroup()
        for (i, name) in ["Chi", "an", "Binh"].enumerated() {
            DispatchQueue.global().async(group: group) { lobby.peerFound(peer("id\(i)", name)) }
        }
        group.wait()
        var st = try ui.wait("three peers", { lobby.state }) { $0.peers.count == 3 }
        try eq(["an", "Binh", "Chi"], st.peers.map { $0.name })
        lobby.peerFound(peer("id1", "An"))
        lobby.peerLost("id2")
        st = try ui.wait("update and loss", { lobby.state }) { $0.peers.count == 2 }
        try eq(["An", "Chi"], st.peers.map { $0.name })
        ui.call { lobby.start { throw BancoError.Network(message: "no Wi-Fi") } }
        st = ui.call { lobby.state }
        try check(!st.discovering && st.error == "no Wi-Fi", "\(st)")
    }

    s.test("a LAN match between two models over loopback: code, proposal, moves, offers, resign") {
        let hostUI = TestUI(), guestUI = TestUI()
        let host = try hostUI.call {
            try MatchModel.host(ui: hostUI, settings: Settings(rules: .casual, playerName: "An"), address: "127.0.0.1:0", advertise: false)
        }
        defer { hostUI.call { host.leave() } }
        let address = try hostUI.wait("listening", { host.state }) { $0.phase == .listening }.address
        let lobby = LobbyModel(ui: guestUI)
        lobby.peerFound(peer("An@host", "An", address))
        let found = try guestUI.wait("the host listed", { lobby.state }) { !$0.peers.isEmpty }.peers[0]
        let guest = try guestUI.call { try lobby.join(found, settings: Settings(playerName: "Binh")) }
        defer { guestUI.call { guest.leave() } }
        let hv = try hostUI.wait("host code", { host.state }) { $0.phase == .verify }
        let gv = try guestUI.wait("guest code", { guest.state }) { $0.phase == .verify }
        try eq(hv.code, gv.code, "same code")
        try eq("Binh", hv.peerName)
        hostUI.call { host.confirmCode() }
        guestUI.call { guest.confirmCode() }
        let proposed = try guestUI.wait("proposal", { guest.state }) { $0.phase == .proposed }
        try eq(Color.black, proposed.myColor)
        try eq(RepetitionRule.casual, proposed.rules?.repetition)
        guestUI.call { guest.acceptProposal() }
        var hs = try hostUI.wait("host playing", { host.state }) { $0.phase == .playing }
        var gs = try guestUI.wait("guest playing", { guest.state }) { $0.phase == .playing }
        try check(hs.myTurn && !gs.myTurn && gs.board.flipped)
        hostUI.call { host.tap(square("h2")); host.tap(square("e2")) }
        gs = try guestUI.wait("the host's move", { guest.state }) { $0.moves.count == 1 }
        try eq(["炮二平五"], gs.moves)
        guestUI.call { guest.tap(square("h9")); guest.tap(square("g7")) }
        hs = try hostUI.wait("the guest's move", { host.state }) { $0.moves.count == 2 }
        guestUI.call { guest.requestUndo() }
        _ = try hostUI.wait("undo request", { host.state }) { $0.undoRequest != nil }
        hostUI.call { host.replyUndo(true) }
        gs = try guestUI.wait("undone", { guest.state }) { $0.moves.count == 1 }
        try check(gs.myTurn)
        hostUI.call { host.offerDraw() }
        _ = try guestUI.wait("draw offer", { guest.state }) { $0.drawOffered }
        guestUI.call { guest.replyDraw(false) }
        hs = try hostUI.wait("declined", { host.state }) { $0.notice != nil }
        try check(hs.notice!.contains("declined"))
        guestUI.call { guest.resign() }
        hs = try hostUI.wait("over", { host.state }) { $0.phase == .over }
        gs = try guestUI.wait("over", { guest.state }) { $0.phase == .over }
        try eq("You won: resignation", hs.result)
        try eq("You lost: resignation", gs.result)
        // The connection banner, fed by hand: shown while down, gone when the link is back.
        hostUI.call { host.handle(.disconnected(reason: "test")) }
        try check(hostUI.call { host.state.banner } != nil)
        hostUI.call { host.handle(.reconnecting(attempt: 2, delayMs: 500)) }
        try eq("Connection lost. Reconnecting (attempt 2)…", hostUI.call { host.state.banner })
        hostUI.call { host.handle(.connected(peer: "127.0.0.1:1")) }
        try eq(nil, hostUI.call { host.state.banner })
    }
}
