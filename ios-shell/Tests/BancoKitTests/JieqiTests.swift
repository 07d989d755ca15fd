// Jieqi in the shell: a game against the computer through VsModel (face-down cells described
// as backs, never as a glyph; both pools beside the board, next to their own side, shrinking
// with every reveal), a jieqi match between two MatchModels over loopback, and jieqi kept in
// the settings.
import Foundation
import BancoKit

extension BoardView {
    /// The faces of the board's pieces that are backs.
    var backs: [PieceFace] { cells.compactMap { face($0) }.filter { $0.isBack } }

    /// The board's pools, which a jieqi board must have.
    func shelves() throws -> PoolShelves {
        guard let s = poolShelves else { throw TestFailure(description: "no pools beside a \(kind) board") }
        return s
    }
}

/// Announcements heard by an observer (on the UI queue).
final class Said { var all: [String] = [] }

func jieqiTests(_ s: Suite) {
    s.test("jieqi vs the computer: face-down pieces drawn as backs, pools beside the board shrink with each reveal") {
        let f = VsFixture()
        defer { f.close() }
        try check(f.ui.call { f.model.newGame(Settings(game: .jieqi, level: 1), movetimeMs: 20, chanceSeed: 11) })
        var st = try f.myTurn(0)
        try eq(GameKind.jieqi, st.kind)
        let start = st.board
        try eq(30, start.backs.count)
        try eq(15, start.backs.filter { $0.color == .red }.count)
        try eq(PieceFace.back(color: .red), start.face(try cell(start, "h2")), "a face-down cannon-square piece")
        guard case .front(.red, let kingGlyph, true)? = start.face(try cell(start, "e0")) else {
            throw TestFailure(description: "the red king's front: \(String(describing: start.face(try cell(start, "e0"))))")
        }
        try check(!kingGlyph.isEmpty)
        try check(start.cells.allSatisfy { $0.piece?.faceDown != true || start.face($0)!.isBack }, "no face-down glyph")

        // Both pools beside the board, each next to its side: Red (the player) below.
        var shelves = try start.shelves()
        try eq([Color.black, .red], [shelves.top.color, shelves.bottom.color])
        try eq([15, 15], [shelves.bottom.total, shelves.bottom.faceDown])
        try eq("Red: 15 hidden", shelves.bottom.title)
        try eq(["rook": 2, "advisor": 2, "elephant": 2, "horse": 2, "cannon": 2, "pawn": 5],
               Dictionary(uniqueKeysWithValues: shelves.bottom.items.map { ($0.name, $0.count) }))
        try check(shelves.bottom.items.allSatisfy { !$0.face.isBack && $0.face.color == .red }, "\(shelves.bottom)")
        try check(shelves.bottom.text.hasPrefix("Red: 15 hidden  ") && shelves.bottom.text.contains("×5"), shelves.bottom.text)
        try eq(15, shelves.top.items.reduce(0) { $0 + $1.count })

        // The face-down piece on h2 moves as a cannon and is revealed on e2.
        let said = Said()
        _ = f.ui.call { f.model.observe { [model = f.model] in if let a = model.state.announcement { said.all.append(a) } } }
        try f.tap("h2", "e2")
        st = try f.myTurn(2)
        // The reveal was announced in Rust's words ("cannon h2 revealed: …").
        let heard = f.ui.call { said.all }
        try check(heard.contains { $0.hasPrefix("cannon h2 revealed: ") }, "announcements: \(heard)")
        let e2 = try cell(st.board, "e2")
        guard case .front(.red, _, _)? = st.board.face(e2), let kind = e2.piece?.name else {
            throw TestFailure(description: "the revealed piece shows its front: \(e2)")
        }
        shelves = try st.board.shelves()
        // The computer's reply (level 1 in 20 ms: which move depends on the time it had)
        // shrinks Black's pool only if it turned a piece over.
        guard let reply = st.lastMove else { throw TestFailure(description: "the computer's reply: \(st)") }
        try eq(Color.black, reply.by, "the last move is the computer's")
        try eq(14, shelves.bottom.total, "Red's reveal left Red's pool")
        try eq(reply.revealed != nil ? 14 : 15, shelves.top.total, "Black's pool after its reply \(reply.coordinate)")
        let had = try start.shelves().bottom.items.first { $0.name == kind }?.count ?? 0
        try eq(had - 1, shelves.bottom.items.first { $0.name == kind }?.count ?? 0, "the revealed \(kind) left Red's pool")
        try eq(shelves.top.faceDown + shelves.bottom.faceDown, st.board.backs.count, "every face-down piece is a back")

        // On for a few turns: pools never grow, backs always match the pools' counts.
        var before = shelves
        for i in 0..<6 where st.outcome == nil {
            try f.tapFirstLegal()
            st = try f.myTurn(st.moves.count + 2)
            let now = try st.board.shelves()
            try check(now.bottom.total <= before.bottom.total && now.top.total <= before.top.total, "turn \(i): \(before) -> \(now)")
            try eq(now.top.faceDown + now.bottom.faceDown, st.board.backs.count)
            before = now
        }
    }

    s.test("jieqi vs the computer as Black: the board and the pools turn round") {
        let f = VsFixture()
        defer { f.close() }
        try check(f.ui.call { f.model.newGame(Settings(game: .jieqi, level: 1, color: .black), movetimeMs: 20, chanceSeed: 5) })
        let st = try f.myTurn(1)
        try check(st.board.flipped)
        let shelves = try st.board.shelves()
        try eq([Color.red, .black], [shelves.top.color, shelves.bottom.color], "the player's own pool below")
        let opened = st.lastMove?.revealed != nil ? 1 : 0
        try eq([15 - opened, 15], [shelves.top.total, shelves.bottom.total], "the computer's opening reveal, if any")
        try eq("Black: 15 hidden", shelves.bottom.title)
        try eq(nil, try startBoard(.xiangqi).poolShelves, "xiangqi has no pools")
    }

    s.test("a jieqi match between two MatchModels over 127.0.0.1: backs and pools on both phones, reveals alike") {
        let (host, guest) = try paired(Settings(game: .jieqi, playerName: "An"))
        defer { guest.leave(); host.leave() }
        let hs = try host.wait("host to move") { $0.yourTurn }
        let gs = try guest.wait("guest's board") { $0.board != nil }
        try eq([30, 30], [hs.board!.backs.count, gs.board!.backs.count])
        try eq(Color.red, try hs.board!.shelves().bottom.color)
        try eq(Color.black, try gs.board!.shelves().bottom.color, "each player's own pool below")
        for (i, (side, from, to)) in [(host, "h2", "e2"), (guest, "h9", "g7")].enumerated() {
            try side.wait("turn \(i + 1)") { $0.yourTurn }
            try side.tap(from, to)
            let h = try host.wait("host sees reveal \(i + 1)") { $0.board!.backs.count == 29 - i }
            let g = try guest.wait("guest sees reveal \(i + 1)") { $0.board!.backs.count == 29 - i }
            let (hc, gc) = (try cell(h.board, to), try cell(g.board, to))
            try eq(hc.piece, gc.piece, "both phones show the same piece on \(to)")
            try check(h.board!.face(hc)?.isBack == false, "revealed on \(to)")
            // Both phones announce it.
            for p in [host, guest] {
                let a = try p.ui.wait("the reveal on \(to) announced", { p.model.state.announcement }) { $0?.contains("revealed") == true }
                try check(a?.contains("\(from) revealed") == true, "\(String(describing: a))")
            }
        }
        let h = try host.wait("host: both revealed") { (try? $0.board!.shelves().top.total) == 14 }
        let g = try guest.wait("guest: both revealed") { (try? $0.board!.shelves().top.total) == 14 }
        try eq([14, 14], [try h.board!.shelves().bottom.total, try g.board!.shelves().bottom.total])
        try eq(try h.board!.shelves().bottom.items, try g.board!.shelves().top.items, "Red's pool alike on both phones")
    }

    s.test("settings: jieqi is kept as the game") {
        let store = MemoryStore()
        let mine = Settings(game: .jieqi, level: 4)
        mine.save(store)
        try eq(mine, Settings.load(store))
        // The preset chosen (Asian by default) in jieqi's terms: Rust's usual jieqi rules.
        try eq(defaultRules(kind: .jieqi), mine.gameRules, "jieqi: the preset's rules")
        try eq(VsSettings(kind: .jieqi, human: .red, level: 4, rules: defaultRules(kind: .jieqi), movetimeMs: 5, fen: nil,
                          chanceSeed: 9),
               mine.vs(movetimeMs: 5, chanceSeed: 9))
    }
}
