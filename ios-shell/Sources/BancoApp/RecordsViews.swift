// The screens of issue 18, kept out of BancoApp.swift: the position editor, the puzzle
// collection by tier, sharing the game on screen (PGN) or a picture of its position (PNG)
// through the share sheet, and opening a shared .pgn file. Everything is decided by BancoKit's
// models (EditorModel, PuzzleModel, GameShare) and Rust; these views draw and forward taps.
// Needs Xcode: not compiled on the Linux test machine.
#if canImport(SwiftUI)
import SwiftUI
import UIKit
import BancoKit

/// The system share sheet with the given items (text, file URLs).
struct ShareSheet: UIViewControllerRepresentable {
    let items: [Any]
    func makeUIViewController(context: Context) -> UIActivityViewController {
        UIActivityViewController(activityItems: items, applicationActivities: nil)
    }
    func updateUIViewController(_ vc: UIActivityViewController, context: Context) {}
}

/// A picture written where the share sheet can read it.
func shareableFile(_ p: Picture) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(p.fileName)
    try p.png.write(to: url)
    return url
}

/// "Share game" (PGN) and "Share picture" (PNG) for the game on screen.
struct ShareGameButtons: View {
    @EnvironmentObject var app: AppState
    @ObservedObject var model: VsModel
    @State private var items: [Any]?
    @State private var failure: String?

    var body: some View {
        HStack {
            Button("Share game") {
                guard let g = model.state.game, let saved = model.saved() else { return }
                do {
                    let pgn = try GameShare.pgn(saved, g, playerName: app.settings.playerName, date: Date())
                    let url = FileManager.default.temporaryDirectory.appendingPathComponent(GameShare.fileName(g.kind, date: Date()))
                    try pgn.write(to: url, atomically: true, encoding: .utf8)
                    items = [url]
                } catch { failure = readable(error) }
            }
            Button("Share picture") {
                guard let g = model.state.game else { return }
                // The PNG is drawn off the main thread.
                GameShare.picture(g, worker: app.worker) { made in
                    do { items = [try shareableFile(try made.get())] } catch { failure = readable(error) }
                }
            }
        }
        .buttonStyle(.bordered)
        .sheet(isPresented: Binding(get: { items != nil }, set: { if !$0 { items = nil } })) { ShareSheet(items: items ?? []) }
        .alert(failure ?? "", isPresented: Binding(get: { failure != nil }, set: { if !$0 { failure = nil } })) {}
    }
}

/// The editor: palette, board of tappable cells, side to move, problems, solve, play from here.
struct EditorScreen: View {
    @EnvironmentObject var app: AppState
    @StateObject private var editor = EditorModel(ui: MainQueueDispatcher())
    @State private var playing = false
    @State private var items: [Any]?
    let kind: GameKind
    /// "Set up from here": the game whose current position the editor opens on (Rust's
    /// `Editor.fromGame`); nil opens `kind`'s start position.
    var saved: Data? = nil

    var body: some View {
        let s = editor.state
        VStack(spacing: 8) {
            if let v = s.view {
                ScrollView(.horizontal) {
                    HStack {
                        Button(s.brush == nil ? "[✕]" : "✕") { editor.choose(brush: nil) }
                        ForEach(v.palette, id: \.self) { p in
                            Button(p == s.brush ? "[\(p.glyph)]" : p.glyph) { editor.choose(brush: p) }
                                .foregroundColor(p.color == .red ? .red : .primary)
                        }
                    }
                }
                let columns = Array(repeating: GridItem(.flexible(), spacing: 0), count: Int(v.width))
                LazyVGrid(columns: columns, spacing: 0) {
                    ForEach(v.cells, id: \.square) { c in
                        Text(c.piece?.glyph ?? "·").font(.title2)
                            .foregroundColor(c.piece?.color == .red ? .red : .primary)
                            .frame(maxWidth: .infinity, minHeight: 34)
                            .background(c.problem ? SwiftUI.Color.red.opacity(0.3) : c.dark ? SwiftUI.Color.brown.opacity(0.6) : SwiftUI.Color.orange.opacity(0.25))
                            .onTapGesture { editor.tap(column: Int(c.column), row: Int(c.row)) }
                    }
                }
                Text(status(s, v)).font(.footnote)
                HStack {
                    Button("\((try? colorName(kind: v.kind, color: v.sideToMove)) ?? "") to move") {
                        editor.setSideToMove(v.sideToMove == .red ? .black : .red)
                    }
                    Button("Flip") { editor.flip() }
                    Button("Empty") { editor.clear() }
                    Button("Start") { editor.resetToStart() }
                }
                HStack {
                    Button("Solve") { editor.solve() }.disabled(!s.playable || s.solving)
                    Button("Play from here") { playing = editor.playFromHere(app.vs, settings: app.settings) }
                    Button("Picture") { editor.pictureLater { p in if let url = try? shareableFile(p) { items = [url] } } }
                }
                if v.kind == .chess { ChessRights(editor: editor, view: v) }
                if !v.pools.isEmpty { JieqiCaptures(editor: editor) }
            }
        }
        .buttonStyle(.bordered)
        .padding()
        .navigationTitle("Set up \(gameName(kind))")
        .onAppear {
            if s.view == nil {
                if let saved { _ = editor.open(saved: saved) } else { editor.open(kind) }
            }
        }
        .navigationDestination(isPresented: $playing) { VsScreen(model: app.vs) { _ in } }
        .sheet(isPresented: Binding(get: { items != nil }, set: { if !$0 { items = nil } })) { ShareSheet(items: items ?? []) }
        .alert(s.message ?? "", isPresented: Binding(get: { s.message != nil }, set: { if !$0 { editor.clearMessage() } })) {}
    }

    private func status(_ s: EditorModel.State, _ v: EditorView) -> String {
        if s.solving { return "Looking for a mate…" }
        if let sol = s.solution {
            if let m = sol.mate { return "Mate in \(m): \(sol.line.joined(separator: " "))" }
            return sol.aborted ? "No mate found (the search ran out of time)" : "No mate found"
        }
        return v.problems.isEmpty ? "The position can be played." : v.problems.map { "• \($0.text)" }.joined(separator: "\n")
    }
}

/// Jieqi in the editor: each side's pool of hidden pieces (Rust's, from the board and the
/// pieces marked captured) and a − / + counter per kind for its pieces captured face up.
struct JieqiCaptures: View {
    @ObservedObject var editor: EditorModel

    var body: some View {
        let s = editor.state
        VStack(alignment: .leading) {
            ForEach([Side.red, .black], id: \.self) { color in
                if let pool = s.pool(color) {
                    Text(pool.text).font(.footnote)
                    ScrollView(.horizontal) {
                        HStack {
                            Text("Captured face up:").font(.footnote)
                            ForEach(s.captured(color), id: \.self) { counter in
                                Button("−") { editor.changeCaptured(counter, by: -1) }
                                Text("\(counter.piece.glyph) \(counter.count)")
                                Button("+") { editor.changeCaptured(counter, by: 1) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Chess in the editor: the four castling rights and the en-passant square (Rust checks them).
struct ChessRights: View {
    @ObservedObject var editor: EditorModel
    let view: EditorView
    @State private var enPassant = ""

    var body: some View {
        let c = view.castling
        VStack {
            HStack {
                right("White O-O", c.whiteKingSide, .red, kingSide: true)
                right("White O-O-O", c.whiteQueenSide, .red, kingSide: false)
            }
            HStack {
                right("Black O-O", c.blackKingSide, .black, kingSide: true)
                right("Black O-O-O", c.blackQueenSide, .black, kingSide: false)
            }
            TextField("En passant square (e3; empty: none)", text: $enPassant)
                .textFieldStyle(.roundedBorder)
                .onSubmit { editor.setEnPassant(enPassant) }
        }
        .onAppear { enPassant = view.enPassant.flatMap { sq in view.cells.first { $0.square == sq }?.name } ?? "" }
    }

    private func right(_ label: String, _ on: Bool, _ color: Side, kingSide: Bool) -> some View {
        Toggle(label, isOn: Binding(get: { on }, set: { editor.setCastling(color, kingSide: kingSide, allowed: $0) }))
    }
}

/// "Set up from here" on the game screen: the editor on the position of the game on screen.
struct SetUpFromHere: View {
    @ObservedObject var model: VsModel
    @State private var saved: Data?

    var body: some View {
        Button("Set up from here") { saved = model.saved() }
            .buttonStyle(.bordered)
            .navigationDestination(isPresented: Binding(get: { saved != nil }, set: { if !$0 { saved = nil } })) {
                EditorScreen(kind: model.state.game?.kind ?? .xiangqi, saved: saved)
            }
    }
}

/// "Save game" (among the saved matches) and "Share game" (PGN) for a match's game, running
/// or finished.
struct MatchRecordButtons: View {
    @EnvironmentObject var app: AppState
    @ObservedObject var model: MatchModel
    @State private var items: [Any]?
    @State private var note: String?

    var body: some View {
        HStack {
            Button("Save game") {
                guard let saved = model.saved() else { return }
                note = MatchRecords(store: app.store).save(saved)
            }
            Button("Share game") {
                guard let m = model.state.match, let kind = m.kind, let saved = model.saved() else { return }
                do {
                    let pgn = try MatchRecords.pgn(saved, m, playerName: app.settings.playerName, date: Date())
                    let url = FileManager.default.temporaryDirectory.appendingPathComponent(GameShare.fileName(kind, date: Date()))
                    try pgn.write(to: url, atomically: true, encoding: .utf8)
                    items = [url]
                } catch { note = readable(error) }
            }
        }
        .buttonStyle(.bordered)
        .sheet(isPresented: Binding(get: { items != nil }, set: { if !$0 { items = nil } })) { ShareSheet(items: items ?? []) }
        .alert(note ?? "", isPresented: Binding(get: { note != nil }, set: { if !$0 { note = nil } })) {}
    }
}

/// The saved matches, newest first; one opens on the game screen as a shared record does.
struct SavedMatchesScreen: View {
    @EnvironmentObject var app: AppState

    var body: some View {
        let entries = MatchRecords(store: app.store).list()
        List {
            if entries.isEmpty { Text("No saved matches yet (Save game on a match's screen)") }
            ForEach(Array(entries.enumerated()), id: \.offset) { _, e in
                NavigationLink(e.label) { VsScreen(model: app.vs) { _ = $0.openSaved(e.saved, settings: app.settings) } }
            }
        }
        .navigationTitle("Saved matches")
    }
}

/// Which game to set up.
struct EditorChoice: View {
    var body: some View {
        List(EditorModel.games(), id: \.self) { k in
            NavigationLink(gameName(k)) { EditorScreen(kind: k) }
        }
        .navigationTitle("Set up a position")
    }
}

/// The games with a collection (Rust's), then a game's tiers with the player's progress,
/// then a tier's puzzles.
struct PuzzleTiersScreen: View {
    @EnvironmentObject var app: AppState
    @ObservedObject var puzzles: PuzzleModel

    var body: some View {
        List {
            ForEach(puzzles.games(), id: \.self) { kind in
                Section(gameName(kind)) {
                    ForEach(puzzles.tiers(kind), id: \.info.tier) { t in
                        NavigationLink("\(t.info.name.capitalized): \(t.solved)/\(t.info.count) solved") {
                            List(puzzles.puzzles(t.info.tier, kind: kind), id: \.0.id) { p, r in
                                NavigationLink((r.solved ? "✓ " : "") + p.puzzle.name) { PuzzleScreen(puzzles: puzzles, start: .id(p.id)) }
                            }
                            .navigationTitle(t.info.name)
                        }
                    }
                    NavigationLink("Next unsolved") { PuzzleScreen(puzzles: puzzles, start: .nextOf(kind)) }
                }
            }
        }
        .navigationTitle("Puzzles")
    }
}

/// A puzzle on the game screen, with Rust's notices in words (solved, a wrong move taken back)
/// and, once solved, the next puzzle of the same game.
struct PuzzleScreen: View {
    /// Which puzzle the screen starts with.
    enum Start { case id(String), nextOf(GameKind) }

    @EnvironmentObject var app: AppState
    @ObservedObject var puzzles: PuzzleModel
    let start: Start

    var body: some View {
        VsScreen(model: app.vs, next: ("Next puzzle", { _ = puzzles.next(settings: app.settings) })) { _ in
            switch start {
            case .id(let id): _ = puzzles.start(id, settings: app.settings)
            case .nextOf(let kind): _ = puzzles.startNext(settings: app.settings, kind: kind)
            }
        }
        .overlay(alignment: .top) {
            if let m = puzzles.state.notice?.words ?? puzzles.state.message {
                Text(m).padding(8).background(.thinMaterial).onTapGesture { puzzles.clearMessage() }
            }
        }
    }
}
#endif
