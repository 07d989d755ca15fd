// Issue 18 on BancoKit's models: the position editor (place, remove, the live problems, solve
// from here, play from here), a puzzle of the collection solved through the model (a wrong
// move taken back, a hint, the computer's defence, progress kept in the key-value store), and
// sharing (a game out as PGN and opened again with the same moves, a bad record named by its
// move, pictures of the position).
import Foundation
import BancoKit

/// The palette's piece of `color` and `kind`.
func palettePiece(_ ed: EditorModel, _ color: Color, _ kind: PieceKind) throws -> Piece {
    guard let p = ed.state.view?.palette.first(where: { $0.color == color && $0.kind == kind && !$0.faceDown }) else {
        throw TestFailure(description: "no \(color) \(kind) in the palette")
    }
    return p
}

func isPng(_ data: Data) -> Bool { Array(data.prefix(4)) == [0x89, 0x50, 0x4E, 0x47] }

extension VsFixture {
    /// Plays `coordinate` ("e1d1") by tapping its two squares.
    func tapMove(_ coordinate: String) throws {
        try tap(String(coordinate.prefix(2)), String(coordinate.dropFirst(2)))
    }
}

func recordsShellTests(_ s: Suite) {
    s.test("editor: place and remove, live problems, solve from here, play from here") {
        let f = VsFixture()
        defer { f.close() }
        let ed = EditorModel(ui: f.ui)
        // The games to set up are Rust's: each listed one opens on its start, the others are refused.
        try eq([GameKind.xiangqi, .chess, .jieqi], EditorModel.games())
        for k in [GameKind.xiangqi, .chess, .jieqi, .lines] {
            try eq(EditorModel.games().contains(k), f.ui.call { ed.open(k) }, "editor of \(k)")
            if EditorModel.games().contains(k) { try eq(Optional(k), f.ui.call { ed.state.view?.kind }) }
        }
        f.ui.call { ed.clearMessage() }
        try check(f.ui.call { ed.open(.xiangqi, from: .empty) })
        var st = f.ui.call { ed.state }
        try eq(90, st.view?.cells.count)
        try check(!st.playable && !(st.view?.problems.isEmpty ?? true), "an empty board has no kings")
        try f.ui.call {
            ed.choose(brush: try palettePiece(ed, .red, .king))
            try eq(EditorTap.placed(square: 4), ed.tap(column: 4, row: 9))
            ed.place("d9", try palettePiece(ed, .black, .king))
            ed.place("e1", try palettePiece(ed, .red, .rook))
        }
        st = f.ui.call { ed.state }
        try check(st.playable, "\(String(describing: st.view?.problems))")
        try eq(mateInOne, st.view?.fen)
        try f.ui.call { ed.place("a0", try palettePiece(ed, .red, .advisor)) }
        st = f.ui.call { ed.state }
        try check(!st.playable && st.view?.cells.first { $0.name == "a0" }?.problem == true)
        try check(!f.ui.call { ed.playFromHere(f.model, settings: Settings(level: 1)) })
        try check(f.ui.call { ed.state.message }?.contains("advisor") == true, "\(String(describing: ed.state.message))")
        f.ui.call { ed.clearMessage(); ed.remove("a0") }
        try check(f.ui.call { ed.state.playable })
        f.ui.call { ed.solve(maxMate: 3) }
        let solved = try f.ui.wait("a solution", { ed.state }) { $0.solution != nil }
        try eq(1, solved.solution?.mate)
        try eq(["e1d1"], solved.solution?.line)
        let picture = f.ui.call { ed.picture(scale: 1) }
        try check(picture.map { isPng($0.png) && $0.svg.contains(">帥</text>") } == true, "an editor picture")
        var settings = Settings(level: 1)
        settings.color = .black
        try check(f.ui.call { ed.playFromHere(f.model, settings: settings, movetimeMs: 50) })
        let first = try f.myTurn(0)
        try eq(mateInOne, first.fen)
        try eq(Color.red, first.human)
        try f.tapMove("e1d1")
        try eq("You won: checkmate", try f.wait("mate") { $0.result != nil }.result)
    }

    s.test("editor: a jieqi position with face-down pieces, its pools, played from here") {
        let f = VsFixture()
        defer { f.close() }
        let ed = EditorModel(ui: f.ui)
        let fen = "3k5/9/1x7/9/9/9/9/9/9/X3K4 w R2A2C2P5N2B2r2a2c2p5n2b2 0 1"
        func faceDown(_ color: Color) throws -> Piece {
            guard let p = ed.state.view?.palette.first(where: { $0.color == color && $0.faceDown }) else {
                throw TestFailure(description: "no face-down \(color) piece in the palette")
            }
            return p
        }
        try check(f.ui.call { ed.open(.jieqi, from: .empty) })
        try f.ui.call {
            ed.place("e0", try palettePiece(ed, .red, .king))
            ed.place("d9", try palettePiece(ed, .black, .king))
            // Red's face-down piece by a tap on a0 (bottom left), Black's by name on b7.
            ed.choose(brush: try faceDown(.red))
            try eq(EditorTap.placed(square: 0), ed.tap(column: 0, row: 9))
            ed.place("b7", try faceDown(.black))
        }
        var st = f.ui.call { ed.state }
        try check(st.playable, "\(String(describing: st.view?.problems))")
        let a0 = st.view?.cells.first { $0.name == "a0" }?.piece
        try check(a0?.faceDown == true && a0?.kind == .rook, "\(String(describing: a0))")
        try eq(fen, st.view?.fen)
        try eq([15, 15], st.view?.pools.map { $0.total })
        // Off its home squares a face-down piece is a problem on its square.
        try f.ui.call { ed.place("e5", try faceDown(.red)) }
        st = f.ui.call { ed.state }
        try check(!st.playable && st.view?.cells.first { $0.name == "e5" }?.problem == true)
        f.ui.call { ed.remove("e5") }
        // Solve is refused for jieqi, with Rust's reason.
        f.ui.call { ed.solve(maxMate: 3) }
        let refused = try f.ui.wait("a refusal", { ed.state }) { !$0.solving && $0.message != nil }
        try check(refused.message?.contains("no mate solver") == true, "\(String(describing: refused.message))")
        f.ui.call { ed.clearMessage() }
        try check(f.ui.call { ed.playFromHere(f.model, settings: Settings(level: 1), movetimeMs: 50) })
        try eq(fen, try f.myTurn(0).fen)
    }

    s.test("editor: jieqi pieces captured face up, counted with − and +, the pools follow, played from here") {
        let f = VsFixture()
        defer { f.close() }
        let ed = EditorModel(ui: f.ui)
        func faceDown(_ color: Color) throws -> Piece {
            guard let p = ed.state.view?.palette.first(where: { $0.color == color && $0.faceDown }) else {
                throw TestFailure(description: "no face-down \(color) piece in the palette")
            }
            return p
        }
        func counter(_ s: EditorModel.State, _ kind: PieceKind) throws -> CapturedCount {
            guard let c = s.captured(.red).first(where: { $0.piece.kind == kind }) else {
                throw TestFailure(description: "no red \(kind) counter")
            }
            return c
        }
        try check(f.ui.call { ed.open(.jieqi, from: .empty) })
        try f.ui.call {
            ed.place("e0", try palettePiece(ed, .red, .king))
            ed.place("d9", try palettePiece(ed, .black, .king))
            ed.place("a0", try faceDown(.red))
        }
        var st = f.ui.call { ed.state }
        try eq("Red: 15 hidden", st.pool(.red)?.title)
        try eq(1, st.pool(.red)?.faceDown)
        // A counter per kind but the king for each side, at zero.
        try eq(["advisor", "elephant", "horse", "rook", "cannon", "pawn"], st.captured(.red).map { $0.piece.name })
        try check(st.captured(.black).allSatisfy { $0.piece.color == .black && $0.count == 0 })
        // + on Red's rook: one rook fewer in Red's pool; − at zero does nothing.
        let rook = try counter(st, .rook)
        f.ui.call { ed.changeCaptured(rook, by: 1) }
        st = f.ui.call { ed.state }
        try eq(1, counter(st, .rook).count)
        try eq("Red: 14 hidden", st.pool(.red)?.title)
        try eq(1, st.pool(.red)?.items.first { $0.name == "rook" }?.count)
        try eq(15, st.pool(.black)?.total, "Black's pool is untouched")
        let advisor = try counter(st, .advisor)
        f.ui.call { ed.changeCaptured(advisor, by: -1) }
        try eq(st, f.ui.call { ed.state }, "nothing below zero")
        // Every red piece but one rook captured face up: the pool keeps that rook.
        for kind in [PieceKind.advisor, .elephant, .horse, .cannon, .pawn] {
            let max = try Int(counter(st, kind).max)
            f.ui.call { ed.setCaptured(.red, kind, count: max) }
        }
        st = f.ui.call { ed.state }
        try eq(1, st.pool(.red)?.total)
        try check(st.playable, "\(String(describing: st.view?.problems))")
        // + beyond what a side has is Rust's refusal, the count unchanged.
        let pawns = try counter(st, .pawn)
        try eq(5, pawns.count)
        f.ui.call { ed.changeCaptured(pawns, by: 1) }
        try check(f.ui.call { ed.state.message } != nil, "six pawns refused")
        try eq(st.view, f.ui.call { ed.state.view })
        f.ui.call { ed.clearMessage() }
        // A second face-down piece is one more than the pool holds: a problem until one is uncaptured.
        try f.ui.call { ed.place("b0", try faceDown(.red)) }
        try check(!f.ui.call { ed.state.playable })
        let taken = try counter(f.ui.call { ed.state }, .rook)
        f.ui.call { ed.changeCaptured(taken, by: -1) }
        st = f.ui.call { ed.state }
        try check(st.playable, "\(String(describing: st.view?.problems))")
        try eq(2, st.pool(.red)?.total)
        try check(f.ui.call { ed.playFromHere(f.model, settings: Settings(level: 1), movetimeMs: 50) })
        try eq("3k5/9/9/9/9/9/9/9/9/XX2K4 w R2A0C0P0N0B0r2a2c2p5n2b2 0 1", try f.myTurn(0).fen)
    }

    s.test("puzzles: a wrong move taken back, solved through the model, progress kept") {
        let store = MemoryStore()
        let p = collectionPuzzles(tier: .mateIn1)[0]
        do {
            let f = VsFixture(store: store)
            defer { f.close() }
            let pm = PuzzleModel(game: f.model, store: store)
            let tiers = f.ui.call { pm.tiers() }
            try eq(PuzzleTier.mateIn1, tiers[0].info.tier)
            try check(tiers.reduce(0) { $0 + Int($1.info.count) } >= 200 && tiers.allSatisfy { $0.solved == 0 })
            try check(f.ui.call { pm.start(p.id, settings: Settings(), movetimeMs: 100) })
            try eq(p.puzzle.fen, try f.myTurn(0).fen)
            // A move that does not mate: played, answered, then taken back with a word.
            let g = try Game.fromFen(kind: .xiangqi, fen: p.puzzle.fen)
            var wrong: String?
            for m in try g.legalMoves() {
                let text = try g.moveText(mv: m, notation: .coordinate)
                let t = try g.copy()
                _ = try t.playText(text: text, notation: nil)
                if try t.status().outcome == nil { wrong = text; break }
            }
            try f.tapMove(wrong ?? "")
            // Rust takes it back with the reply, counts it and says so (a typed notice).
            let back = try f.ui.wait("the wrong move taken back", { pm.state }) { $0.notice != nil }
            guard case let .wrongMoveTakenBack(played, reply)? = back.notice else {
                throw TestFailure(description: "not a wrong-move notice: \(String(describing: back.notice))")
            }
            try eq(wrong, played.coordinate)
            try check(reply != nil && back.notice?.words.hasPrefix("Not that move") == true)
            let again = try f.wait("the start again") { $0.moves.isEmpty && $0.yourTurn }
            try eq(1, again.puzzle?.wrongMoves)
            try check(again.puzzle?.solved == false && !again.canRedo)
            f.ui.call { pm.clearMessage() }
            try eq(1, try f.wait("the notice cleared in Rust") { $0.puzzle?.notice == nil }.puzzle?.wrongMoves)
            try eq(nil, f.ui.call { pm.state.notice })
            f.ui.call { pm.hint() }
            let hinted = try f.wait("a hint") { $0.hint != nil }
            try eq(p.solution[0], hinted.hint?.coordinate)
            try eq(1, hinted.puzzle?.hintsUsed)
            try f.tapMove(p.solution[0])
            try check(try f.wait("mate") { $0.outcome != nil }.puzzle?.solved == true)
            let solved = try f.ui.wait("solved", { pm.state }) { $0.notice.map { if case .solved = $0 { return true } else { return false } } ?? false }
            try eq(PuzzleNotice.solved(hintsUsed: 1, wrongMoves: 1), solved.notice)
            try check(solved.notice?.words.hasPrefix("Solved") == true)
            // A puzzle that does not exist: refused, nothing recorded.
            try check(!f.ui.call { pm.start("no such puzzle", settings: Settings()) })
            try check(f.ui.call { pm.state.message }?.contains("no such puzzle") == true)
            try eq(PuzzleRecord(solved: false, attempts: 0, hints: 0), f.ui.call { pm.record("no such puzzle") })
            try check(store.string(PuzzleModel.progressKey) != nil)
        }
        do {
            // The app started again: the same store.
            let f = VsFixture(store: store)
            defer { f.close() }
            let pm = PuzzleModel(game: f.model, store: store)
            let r = f.ui.call { pm.record(p.id) }
            try check(r.solved && r.attempts == 1 && r.hints == 1, "\(r)")
            try eq(1, f.ui.call { pm.tiers() }[0].solved)
            try check(f.ui.call { pm.puzzles(.mateIn1) }[0].1.solved)
            let two = collectionPuzzles(tier: .mateIn2)[0]
            try check(f.ui.call { pm.start(two.id, settings: Settings(), movetimeMs: 100) })
            try f.myTurn(0)
            try f.tapMove(two.solution[0])
            try f.myTurn(2)
            f.ui.call { pm.hint() }
            let hint = try f.wait("the mating move") { $0.hint != nil }.hint?.coordinate ?? ""
            try f.tapMove(hint)
            try check(try f.wait("mate in two") { $0.outcome != nil }.puzzle?.solved == true)
            _ = try f.ui.wait("recorded", { pm.state }) { $0.notice != nil }
            try eq(2, f.ui.call { pm.tiers() }.prefix(2).reduce(0) { $0 + $1.solved })
        }
        let bad = MemoryStore()
        bad.set(PuzzleModel.progressKey, "not base64!")
        let f = VsFixture(store: bad)
        let pm = PuzzleModel(game: f.model, store: bad)
        guard case .recordDamaged? = pm.state.notice else { throw TestFailure(description: "no damage notice") }
        try check(pm.state.notice?.words.contains("afresh") == true)
        try check(pm.tiers().allSatisfy { $0.solved == 0 })
        try eq("not base64!", bad.string(PuzzleModel.progressDamagedKey), "set aside before the first change")
    }

    s.test("puzzles: chess is reachable; Next puzzle stays in its game and keeps the game to continue") {
        let store = MemoryStore()
        let f = VsFixture(store: store)
        defer { f.close() }
        let pm = PuzzleModel(game: f.model, store: store)
        // A game of xiangqi to continue, which a puzzle must not replace.
        try check(f.ui.call { f.model.newGame(Settings(level: 1, sound: false), movetimeMs: 50) })
        try f.myTurn(0)
        try f.tap("h2", "e2")
        try f.myTurn(2)
        let kept = store.string(VsModel.continueKey)
        try check(kept != nil)
        try eq([GameKind.xiangqi, .chess], f.ui.call { pm.games() })
        let tiers = f.ui.call { pm.tiers(.chess) }
        try check(!tiers.isEmpty && tiers.allSatisfy { $0.solved == 0 })
        let list = f.ui.call { pm.puzzles(tiers[0].info.tier, kind: .chess) }.map(\.0)
        try check(list.allSatisfy { $0.puzzle.kind == .chess })
        guard let p = list.first(where: { $0.solution[0].count == 4 }) else { throw TestFailure(description: "no plain mate") }
        try check(f.ui.call { pm.start(p.id, settings: Settings(), movetimeMs: 100) })
        try eq(GameKind.chess, try f.myTurn(0).kind)
        try check(f.ui.call { pm.playing })
        try f.tapMove(p.solution[0])
        try check(try f.wait("mate") { $0.outcome != nil }.puzzle?.solved == true)
        _ = try f.ui.wait("solved", { pm.state }) { $0.notice.map { if case .solved = $0 { return true } else { return false } } ?? false }
        // Next puzzle: the first unsolved chess puzzle, not the solved one, not xiangqi.
        try check(f.ui.call { pm.next(settings: Settings(), movetimeMs: 100) })
        let next = f.ui.call { pm.state.current }
        try check(next != nil && next?.id != p.id && next?.puzzle.kind == .chess)
        try eq(GameKind.chess, try f.myTurn(0).kind)
        try eq(kept, store.string(VsModel.continueKey))
        try eq(1, f.ui.call { pm.tiers(.chess) }.reduce(0) { $0 + $1.solved })
        try eq(0, f.ui.call { pm.tiers() }.reduce(0) { $0 + $1.solved })
    }

    s.test("share: a game out as PGN and opened again gives the same moves, side and level; pictures") {
        let date = Date(timeIntervalSince1970: 1_796_169_600) // 2026-12-02 UTC
        let f = VsFixture()
        defer { f.close() }
        try check(f.ui.call { f.model.newGame(Settings(level: 1, sound: false), movetimeMs: 50) })
        try f.myTurn(0)
        try f.tapFirstLegal()
        try f.myTurn(2)
        try f.tapFirstLegal()
        let played = try f.myTurn(4)
        guard let saved = f.ui.call({ f.model.saved() }) else { throw TestFailure(description: "nothing saved") }
        let utc = TimeZone(identifier: "UTC") ?? .current
        let pgn = try GameShare.pgn(saved, played, playerName: "Alice", date: date, timeZone: utc)
        for tag in ["[Red \"Alice\"]", "[Black \"Banco level 1\"]", "[Human \"Red\"]", "[Level \"1\"]",
                    "[Date \"2026.12.02\"]"] {
            try check(pgn.contains(tag), "\(tag) in \(pgn)")
        }
        try eq("banco-xiangqi-2026-12-02.pgn", GameShare.fileName(.xiangqi, date: date, timeZone: utc))
        // The player's local day, as Android's LocalDate.now(): midnight UTC is still the 1st in New York.
        let newYork = TimeZone(identifier: "America/New_York") ?? utc
        try eq("banco-xiangqi-2026-12-01.pgn", GameShare.fileName(.xiangqi, date: date, timeZone: newYork))
        try check(try GameShare.pgn(saved, played, playerName: "Alice", date: date, timeZone: newYork)
            .contains("[Date \"2026.12.01\"]"), "the local day in the record")
        let opened = try GameShare.open(pgn).get()
        try eq(4, opened.plies)
        try eq(Color.red, opened.sideToMove)
        // Settings that say Black at level 7: the record's side and level go on.
        var settings = Settings(level: 7)
        settings.color = .black
        try check(f.ui.call { f.model.openSaved(opened.saved, settings: settings, movetimeMs: 50) })
        let reopened = try f.myTurn(4)
        try eq(Color.red, reopened.human, "the player's side from the record")
        try eq(1, reopened.level, "the computer's level from the record")
        try eq(played.moves, reopened.moves)
        try eq(played.fen, reopened.fen)
        let pic = try GameShare.picture(reopened, scale: 1)
        try check(isPng(pic.png) && pic.svg.contains("class=\"last-move\""), "a PNG, the last move marked")
        try eq(reopened.board.cells.filter { $0.piece != nil }.count, count("class=\"piece ", in: pic.svg))
        switch GameShare.open("1. e4 e5 2. Ke3 Nc6 *") {
        case .success: throw TestFailure(description: "an illegal move was accepted")
        case .failure(let e): try check(e.description.contains("move 2 (White) `Ke3`"), e.description)
        }
        let chess = try GameShare.open("[Event \"Club\"]\n\n1. e4 e5 2. Nf3 *").get()
        try eq(GameKind.chess, chess.kind)
        try eq(3, chess.plies)
        try eq(Color.black, chess.sideToMove)
    }
}

func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }
