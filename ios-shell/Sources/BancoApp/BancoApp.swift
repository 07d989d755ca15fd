// The SwiftUI app: home (play the computer, continue, play nearby, puzzles, settings), the board
// drawn with Canvas, the lobby, and the match dialogs. All logic is in BancoKit (tested on Linux
// by ios-shell/scripts/test.sh); these views only show model state and forward taps.
#if canImport(SwiftUI)
import SwiftUI
import BancoKit
#if canImport(AudioToolbox)
import AudioToolbox
#endif

/// SwiftUI's colour, for drawing; Banco's `Color` is a side (red, black).
typealias Paint = SwiftUI.Color
typealias Side = BancoKit.Color

/// System sounds: no assets to ship.
final class SystemSound: SoundPlayer {
    func play(_ sound: Sound) {
        #if canImport(AudioToolbox)
        let id: SystemSoundID
        switch sound {
        case .move: id = 1104
        case .capture: id = 1105
        case .check: id = 1057
        case .gameOver: id = 1025
        }
        AudioServicesPlaySystemSound(id)
        #endif
    }
}

/// What the app holds for its whole life.
final class AppState: ObservableObject {
    let ui = MainQueueDispatcher()
    let store = UserDefaultsStore()
    let sound = SystemSound()
    let engine: Engine
    let game: GameModel
    @Published var settings: Settings

    init() {
        // 16 MiB of transposition table is plenty on a phone.
        engine = try! Engine(hashMib: 16)
        game = GameModel(ui: ui, engine: engine, store: store, sound: sound)
        settings = Settings.load(store)
    }

    func save(_ s: Settings) {
        settings = s
        s.save(store)
        game.setSound(s.sound)
    }

    var matchSound: SoundPlayer { settings.sound ? sound : SilentSound() }
}

/// The app's root view. An Xcode iOS app target shows it from its `@main` App (README):
///
///     @main struct BancoIOSApp: App {
///         var body: some Scene { WindowGroup { BancoRootView() } }
///     }
public struct BancoRootView: View {
    @StateObject private var app = AppState()
    @Environment(\.scenePhase) private var phase

    public init() {}

    public var body: some View {
        NavigationStack { HomeView() }
            .environmentObject(app)
            .onChange(of: phase) { _, p in
                // Leaving the app stops the AI (the game is saved after every move); back, it resumes.
                if p == .background { app.game.close() } else if p == .active { app.game.resume() }
            }
    }
}

struct HomeView: View {
    @EnvironmentObject var app: AppState
    @State private var showSettings = false

    var body: some View {
        VStack(spacing: 16) {
            Text("象棋 Banco").font(.largeTitle.bold())
            NavigationLink("Play the computer") {
                GameScreen { try? $0.newGame(app.settings) }
            }
            if app.game.canContinue {
                NavigationLink("Continue") {
                    GameScreen { g in if !g.continueGame(app.settings) { try? g.newGame(app.settings) } }
                }
            }
            NavigationLink("Play nearby") { LobbyScreen() }
            NavigationLink("Puzzles") { PuzzleList() }
            Button("Settings") { showSettings = true }
        }
        .buttonStyle(.borderedProminent)
        .sheet(isPresented: $showSettings) { SettingsSheet(settings: app.settings) }
    }
}

struct PuzzleList: View {
    @EnvironmentObject var app: AppState
    var body: some View {
        List(Puzzles.all, id: \.fen) { p in
            NavigationLink("\(p.name) (mate in \(p.mateIn))") {
                GameScreen { g in
                    var s = app.settings
                    s.color = p.fen.split(separator: " ").dropFirst().first == "b" ? .black : .red
                    s.level = 10
                    try? g.newGame(s, fen: p.fen)
                }
            }
        }
        .navigationTitle("Puzzles")
    }
}

/// The board: lines, river, palaces, pieces with their glyphs, and highlights; taps give squares.
struct BoardCanvas: View {
    let board: BoardModel
    let onTap: (Square) -> Void

    var body: some View {
        GeometryReader { geo in
            let cell = min(geo.size.width / 9, geo.size.height / 10)
            let left = (geo.size.width - cell * 9) / 2 + cell / 2
            let top = (geo.size.height - cell * 10) / 2 + cell / 2
            let pt = { (c: Int, r: Int) in CGPoint(x: left + CGFloat(c) * cell, y: top + CGFloat(r) * cell) }
            Canvas { ctx, size in
                ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .color(Paint(red: 0.93, green: 0.79, blue: 0.54)))
                var lines = Path()
                for r in 0...9 { lines.move(to: pt(0, r)); lines.addLine(to: pt(8, r)) }
                for c in 0...8 {
                    if c == 0 || c == 8 {
                        lines.move(to: pt(c, 0)); lines.addLine(to: pt(c, 9))
                    } else {
                        lines.move(to: pt(c, 0)); lines.addLine(to: pt(c, 4))
                        lines.move(to: pt(c, 5)); lines.addLine(to: pt(c, 9))
                    }
                }
                for (a, b) in [(0, 2), (7, 9)] {
                    lines.move(to: pt(3, a)); lines.addLine(to: pt(5, b))
                    lines.move(to: pt(5, a)); lines.addLine(to: pt(3, b))
                }
                let ink = Paint(red: 0.35, green: 0.23, blue: 0.1)
                ctx.stroke(lines, with: .color(ink), lineWidth: 1.5)
                let riverY = top + 4.5 * cell
                ctx.draw(Text("楚 河").font(.system(size: cell * 0.5)).foregroundColor(ink), at: CGPoint(x: left + 2 * cell, y: riverY))
                ctx.draw(Text("漢 界").font(.system(size: cell * 0.5)).foregroundColor(ink), at: CGPoint(x: left + 6 * cell, y: riverY))

                // A copy of the context draws on the same canvas (no capture of the inout one).
                let drawing = ctx
                func ring(_ s: Square, _ radius: CGFloat, _ color: Paint) {
                    let c = board.cell(of: s)
                    let p = pt(c.column, c.row)
                    drawing.stroke(Path(ellipseIn: CGRect(x: p.x - radius, y: p.y - radius, width: 2 * radius, height: 2 * radius)),
                               with: .color(color), lineWidth: 3)
                }
                if let m = board.lastMove { ring(m.from, cell * 0.47, .blue); ring(m.to, cell * 0.47, .blue) }
                if let m = board.hint { ring(m.from, cell * 0.5, .orange); ring(m.to, cell * 0.5, .orange) }
                for (s, piece) in board.pieces {
                    let c = board.cell(of: s)
                    let p = pt(c.column, c.row)
                    let r = cell * 0.44
                    let disc = Path(ellipseIn: CGRect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r))
                    let color: Paint = piece.color == .red ? Paint(red: 0.7, green: 0.05, blue: 0.05) : .black
                    ctx.fill(disc, with: .color(Paint(red: 0.98, green: 0.92, blue: 0.78)))
                    ctx.stroke(disc, with: .color(color), lineWidth: 2)
                    ctx.draw(Text(piece.glyph).font(.system(size: cell * 0.55, weight: .bold)).foregroundColor(color), at: p)
                }
                if let k = board.checkedKing { ring(k, cell * 0.5, .red) }
                if let s = board.selected { ring(s, cell * 0.5, .green) }
                for t in board.targets {
                    let c = board.cell(of: t)
                    let p = pt(c.column, c.row)
                    let r = cell * (board.pieces[t] != nil ? 0.2 : 0.12)
                    ctx.fill(Path(ellipseIn: CGRect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r)), with: .color(.green.opacity(0.7)))
                }
            }
            .contentShape(Rectangle())
            .gesture(DragGesture(minimumDistance: 0).onEnded { v in
                let col = Int(((v.location.x - left) / cell).rounded())
                let row = Int(((v.location.y - top) / cell).rounded())
                if let s = board.square(column: col, row: row) { onTap(s) }
            })
        }
        .aspectRatio(0.9, contentMode: .fit)
    }
}

struct GameScreen: View {
    @EnvironmentObject var app: AppState
    let start: (GameModel) -> Void

    var body: some View {
        GameBody(model: app.game, start: start)
    }
}

private struct GameBody: View {
    @ObservedObject var model: GameModel
    let start: (GameModel) -> Void
    @State private var started = false

    var body: some View {
        let s = model.state
        VStack {
            Text(s.result ?? (s.thinking ? "The computer is thinking…" : s.status?.inCheck == true ? "Check! Your move" : "Your move (level \(s.level))"))
                .font(.headline)
            BoardCanvas(board: s.board) { model.tap($0) }
            Text(s.moves.joined(separator: " ")).font(.footnote).lineLimit(2)
            HStack {
                Button("Undo") { model.undo() }.disabled(!s.canUndo)
                Button("Redo") { model.redo() }.disabled(!s.canRedo)
                Button("Hint") { model.hint() }.disabled(!s.myTurn || s.hinting)
            }
            .buttonStyle(.bordered)
        }
        .padding()
        .onAppear {
            if !started { started = true; start(model) } else { model.resume() }
        }
        .onDisappear { model.close() }
        .alert(s.message ?? "", isPresented: Binding(get: { s.message != nil }, set: { if !$0 { model.clearMessage() } })) {}
    }
}

struct LobbyScreen: View {
    @EnvironmentObject var app: AppState
    @StateObject private var holder = LobbyHolder()
    @State private var address = ""
    @State private var match: MatchModel?
    @State private var failure: String?

    var body: some View {
        VStack {
            if let lobby = holder.lobby {
                LobbyList(lobby: lobby) { peer in openMatch { try lobby.join(peer, settings: app.settings, sound: app.matchSound) } }
            }
            HStack {
                TextField("192.168.1.20:7368", text: $address).textFieldStyle(.roundedBorder)
                Button("Join") { openMatch { try MatchModel.join(ui: app.ui, name: app.settings.playerName, address: address, sound: app.matchSound) } }
            }
            Button("Host a game") {
                openMatch {
                    do {
                        return try MatchModel.host(ui: app.ui, settings: app.settings, address: "0.0.0.0:7368", advertise: true, sound: app.matchSound)
                    } catch {
                        return try MatchModel.host(ui: app.ui, settings: app.settings, address: "0.0.0.0:0", advertise: true, sound: app.matchSound)
                    }
                }
            }
            .buttonStyle(.borderedProminent)
        }
        .padding()
        .navigationTitle("Play nearby")
        .onAppear { holder.start(app.ui) }
        .onDisappear { holder.stop() }
        .navigationDestination(item: Binding(get: { match.map(MatchBox.init) }, set: { match = $0?.model })) { box in
            MatchScreen(model: box.model)
        }
        .alert(failure ?? "", isPresented: Binding(get: { failure != nil }, set: { if !$0 { failure = nil } })) {}
    }

    private func openMatch(_ make: () throws -> MatchModel) {
        do { match = try make() } catch { failure = readable(error) }
    }
}

struct MatchBox: Hashable {
    let model: MatchModel
    static func == (a: MatchBox, b: MatchBox) -> Bool { a.model === b.model }
    func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(model)) }
}

final class LobbyHolder: ObservableObject {
    @Published var lobby: LobbyModel?
    func start(_ ui: UIDispatcher) {
        guard lobby == nil else { return }
        let l = LobbyModel(ui: ui)
        // iOS needs the multicast entitlement (com.apple.developer.networking.multicast) and
        // NSLocalNetworkUsageDescription + NSBonjourServices (_banco._tcp) in Info.plist.
        l.start { try Lobby(interfaces: []) }
        lobby = l
    }
    func stop() { lobby?.stop(); lobby = nil }
}

private struct LobbyList: View {
    @ObservedObject var lobby: LobbyModel
    let join: (LobbyPeer) -> Void
    var body: some View {
        List {
            if let e = lobby.state.error { Text(e).foregroundColor(.red) }
            if lobby.state.peers.isEmpty { Text("Looking for players on this Wi-Fi…") }
            ForEach(lobby.state.peers, id: \.id) { p in
                Button("\(p.name)  \(p.addresses.first ?? p.host)") { join(p) }
            }
        }
    }
}

struct MatchScreen: View {
    @ObservedObject var model: MatchModel

    var body: some View {
        let s = model.state
        VStack {
            if let banner = s.banner {
                Text(banner).padding(6).frame(maxWidth: .infinity).background(Paint.yellow.opacity(0.6))
            }
            Text(status(s)).font(.headline)
            BoardCanvas(board: s.board) { model.tap($0) }
            HStack {
                Button("Offer draw") { model.offerDraw() }.disabled(s.phase != .playing)
                Button("Ask undo") { model.requestUndo() }.disabled(s.phase != .playing || s.moves.isEmpty)
                Button("Resign", role: .destructive) { model.resign() }.disabled(s.phase != .playing)
            }
            .buttonStyle(.bordered)
        }
        .padding()
        .onDisappear { model.leave() }
        .alert("Pair with \(s.peerName ?? "")", isPresented: .constant(s.phase == .verify)) {
            Button("Same code") { model.confirmCode() }
            Button("Different", role: .cancel) { model.rejectCode() }
        } message: {
            Text("Does the other phone show \(s.code ?? "")? The codes must match exactly.")
        }
        .alert("\(s.peerName ?? "") proposes a game", isPresented: .constant(s.phase == .proposed)) {
            Button("Play") { model.acceptProposal() }
            Button("Decline", role: .cancel) { model.declineProposal() }
        } message: {
            Text("You play \(s.myColor == .red ? "Red (you move first)" : "Black"). Rules: \(s.rules?.repetition == .asian ? RulesPreset.asian.label : RulesPreset.casual.label)")
        }
        .alert("Take back?", isPresented: .constant(s.undoRequest != nil)) {
            Button("Allow") { model.replyUndo(true) }
            Button("Refuse", role: .cancel) { model.replyUndo(false) }
        }
        .alert("Draw offered", isPresented: .constant(s.drawOffered)) {
            Button("Accept") { model.replyDraw(true) }
            Button("Decline", role: .cancel) { model.replyDraw(false) }
        }
        .alert(s.notice ?? "", isPresented: Binding(get: { s.notice != nil }, set: { if !$0 { model.clearNotice() } })) {}
    }

    private func status(_ s: MatchModel.State) -> String {
        switch s.phase {
        case .connecting: return "Connecting…"
        case .listening: return "Waiting for a player (\(s.address))…"
        case .verify: return "Compare the code with \(s.peerName ?? "")"
        case .waiting: return "Waiting for \(s.peerName ?? "the other player")…"
        case .proposed: return "\(s.peerName ?? "") proposes a game"
        case .playing: return s.myTurn ? "Your move" : "\(s.peerName ?? "")'s move"
        case .over: return s.result ?? "Game over"
        case .closed: return "The match is over: \(s.closedReason ?? "")"
        }
    }
}

struct SettingsSheet: View {
    @EnvironmentObject var app: AppState
    @Environment(\.dismiss) private var dismiss
    @State var settings: Settings

    var body: some View {
        Form {
            TextField("Your name", text: $settings.playerName)
            Stepper("Computer level: \(settings.level)", value: $settings.level, in: 1...10)
            Picker("Your colour", selection: $settings.color) {
                Text("Red (move first)").tag(Side.red)
                Text("Black").tag(Side.black)
            }
            Picker("Rules", selection: $settings.rules) {
                ForEach(RulesPreset.allCases, id: \.self) { Text($0.label).tag($0) }
            }
            Toggle("Sound", isOn: $settings.sound)
            Button("Save") { app.save(settings); dismiss() }
        }
    }
}
#endif
