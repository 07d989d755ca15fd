// The SwiftUI app: home (each game against the computer, continue, set up a position, puzzles,
// play nearby,
// settings), the board drawn from Rust's BoardView (9×10 with river and palaces, or 8×8
// checkered; a face-down jieqi piece as its back, jieqi's pools above and below the board,
// both as BancoKit's PieceFace decides), the promotion picker, the lobby and the match
// dialogs. It only draws model state and forwards taps: every rule is in Rust, the platform
// services in BancoKit (tested on Linux by ios-shell/scripts/test.sh). Needs Xcode: not
// compiled on the Linux test machine.
#if canImport(SwiftUI)
import SwiftUI
import BancoKit
import CoreBluetooth
#if canImport(AudioToolbox)
import AudioToolbox
#endif

/// SwiftUI's colour, for drawing; Banco's `Color` is a side (red/white, black).
typealias Paint = SwiftUI.Color
typealias Side = BancoKit.Color

/// System sounds: no assets to ship.
final class SystemSound: SoundPlayer {
    func play(_ sound: Sound) {
        #if canImport(AudioToolbox)
        let ids: [Sound: SystemSoundID] = [.move: 1104, .capture: 1105, .check: 1057, .gameOver: 1025]
        AudioServicesPlaySystemSound(ids[sound] ?? 1104)
        #endif
    }
}

/// What the app holds for its whole life.
final class AppState: ObservableObject {
    let ui = MainQueueDispatcher()
    let store = UserDefaultsStore()
    /// The device's identity and the players whose code was confirmed, between matches: in
    /// the Keychain (this device only), moved there once from the defaults.
    lazy var trust = trustKeeper(secrets: KeychainSecrets(), legacy: store)
    let sound = SystemSound()
    let vs: VsModel
    let puzzles: PuzzleModel
    let lines: LinesModel
    /// Pictures drawn and shared records read off the main thread.
    let worker: Worker
    @Published var settings: Settings
    /// A shared game was opened (RecordsViews): the game screen shows it.
    @Published var openedGame = false
    /// Why a file opened with Banco could not be read (shown once).
    @Published var openError: String?
    /// What loading the device's key had to do that the player should know (shown once).
    @Published var trustNotice: String?

    init() {
        vs = VsModel(ui: ui, store: store, sound: sound)
        puzzles = PuzzleModel(game: vs, store: store)
        lines = LinesModel(ui: ui, store: store)
        worker = Worker(ui: ui)
        settings = Settings.load(store)
    }

    /// The device's key and remembered players for a match, with `trust`'s notice (kept
    /// bytes that could not be read were set aside) shown once.
    func keptTrust() throws -> Data? {
        let kept = try trust.load()
        if let n = trust.takeNotice() { trustNotice = n }
        return kept
    }

    func save(_ s: Settings) {
        settings = s
        s.save(store)
        vs.setSound(s.sound)
        lines.setHintPlayouts(s.linesHintPlayouts) // at once, for the game on screen too
    }

    var matchSound: SoundPlayer { settings.sound ? sound : SilentSound() }

    /// Bluetooth for the lobby: the gate (its words are Rust's) and the CoreBluetooth radios.
    lazy var bluetooth: NearbyBluetooth = {
        let gate = BleGate(ui: ui)
        return NearbyBluetooth(gate: gate, authorization: {
            switch CBManager.authorization {
            case .allowedAlways: return .allowed
            case .notDetermined: return .notDetermined
            default: return .denied
            }
        }, central: { AppleBleCentral(onAdapter: gate.adapterChanged) },
           peripheral: { AppleBlePeripheral(onAdapter: gate.adapterChanged) })
    }()

    /// The nearby players, on the LAN and over Bluetooth.
    lazy var lobby = LobbyModel(ui: ui, bluetooth: bluetooth)
    /// The system's Bluetooth prompt, asked for from the lobby.
    let bluetoothPermission = BluetoothPermission()
}

/// The app's root view; an Xcode iOS app target shows it from its `@main` App (README).
public struct BancoRootView: View {
    @StateObject private var app = AppState()
    public init() {}
    public var body: some View {
        NavigationStack { HomeView() }.environmentObject(app)
            .onOpenURL { url in openShared(url) }
            .fullScreenCover(isPresented: $app.openedGame) {
                NavigationStack {
                    VsScreen(model: app.vs) { _ in }
                        .toolbar { Button("Close") { app.openedGame = false } }
                }
                .environmentObject(app)
            }
            .alert("This game cannot be opened", isPresented: Binding(get: { app.openError != nil },
                                                                       set: { if !$0 { app.openError = nil } })) {
                Button("OK", role: .cancel) {}
            } message: {
                Text(app.openError ?? "")
            }
            .alert("Remembered players", isPresented: Binding(get: { app.trustNotice != nil },
                                                               set: { if !$0 { app.trustNotice = nil } })) {
                Button("OK", role: .cancel) {}
            } message: {
                Text(app.trustNotice ?? "")
            }
    }

    /// A .pgn file opened with Banco (read and parsed off the main thread): the game goes on
    /// from its last move, the player moving next.
    private func openShared(_ url: URL) {
        GameShare.open(read: { try String(contentsOf: url, encoding: .utf8) }, worker: app.worker) { opened in
            switch opened {
            case .success(let g):
                var s = app.settings.with(game: g.kind)
                s.color = g.sideToMove
                app.openedGame = app.vs.openSaved(g.saved, settings: s)
            case .failure(let e):
                app.openError = e.description
            }
        }
    }
}

struct HomeView: View {
    @EnvironmentObject var app: AppState
    @State private var showSettings = false

    var body: some View {
        VStack(spacing: 16) {
            Text("Banco").font(.largeTitle.bold())
            ForEach(Settings.games, id: \.self) { kind in
                NavigationLink("\(gameName(kind)) vs computer") {
                    VsScreen(model: app.vs, next: ("New game", { _ = app.vs.newGame(app.settings.with(game: kind)) })) {
                        _ = $0.newGame(app.settings.with(game: kind))
                    }
                }
            }
            ContinueLink(model: app.vs)
            NavigationLink("Set up a position") { EditorChoice() }
            NavigationLink("Saved matches") { SavedMatchesScreen() }
            NavigationLink("Puzzles") { PuzzleTiersScreen(puzzles: app.puzzles) }
            NavigationLink("Lines") { LinesScreen(model: app.lines, settings: app.settings) }
            NavigationLink("Play nearby") { LobbyScreen(lobby: app.lobby) }
            Button("Settings") { showSettings = true }
        }
        .buttonStyle(.borderedProminent)
        .sheet(isPresented: $showSettings) { SettingsSheet(settings: app.settings) }
    }
}

/// "Continue" while a game is kept (observes the model, which changes after every move).
struct ContinueLink: View {
    @EnvironmentObject var app: AppState
    @ObservedObject var model: VsModel
    var body: some View {
        if model.canContinue {
            NavigationLink("Continue") { VsScreen(model: model) { _ = $0.continueGame(app.settings) } }
        }
    }
}

/// The board from Rust's BoardView: cells where the layout puts them, taps as (column, row).
struct BoardCanvas: View {
    let board: BoardView
    let onTap: (Int, Int) -> Void

    var body: some View {
        GeometryReader { geo in
            let l = BoardLayout(board: board, width: geo.size.width, height: geo.size.height)
            let pt = { (c: Int, r: Int) -> CGPoint in let p = l.center(column: c, row: r); return CGPoint(x: p.x, y: p.y) }
            Canvas { ctx, _ in
                let side = l.cell
                let ink = Paint(red: 0.35, green: 0.23, blue: 0.1)
                let frame = CGRect(x: l.left, y: l.top, width: side * Double(l.columns), height: side * Double(l.rows))
                if l.onIntersections {
                    ctx.fill(Path(frame), with: .color(Paint(red: 0.93, green: 0.79, blue: 0.54)))
                    var lines = Path()
                    for seg in l.lines {
                        lines.move(to: CGPoint(x: seg.from.x, y: seg.from.y))
                        lines.addLine(to: CGPoint(x: seg.to.x, y: seg.to.y))
                    }
                    ctx.stroke(lines, with: .color(ink), lineWidth: 1.5)
                    // Where the river runs is Rust's (BoardView.riverAfterRow, placed by the layout).
                    if let river = l.riverY {
                        ctx.draw(Text("楚 河").font(.system(size: side * 0.5)).foregroundColor(ink), at: CGPoint(x: pt(2, 0).x, y: river))
                        ctx.draw(Text("漢 界").font(.system(size: side * 0.5)).foregroundColor(ink), at: CGPoint(x: pt(l.columns - 3, 0).x, y: river))
                    }
                }
                for c in board.cells {
                    let p = pt(Int(c.column), Int(c.row))
                    let square = CGRect(x: p.x - side / 2, y: p.y - side / 2, width: side, height: side)
                    if !l.onIntersections {
                        ctx.fill(Path(square), with: .color(c.dark ? Paint(red: 0.71, green: 0.53, blue: 0.39)
                                                                      : Paint(red: 0.94, green: 0.85, blue: 0.71)))
                    }
                    let ring = Path(ellipseIn: square.insetBy(dx: side * 0.04, dy: side * 0.04))
                    if c.lastMove { ctx.stroke(ring, with: .color(.blue), lineWidth: 3) }
                    if c.hint { ctx.stroke(ring, with: .color(.orange), lineWidth: 3) }
                    if c.check { ctx.stroke(ring, with: .color(.red), lineWidth: 4) }
                    if c.selected { ctx.stroke(ring, with: .color(.green), lineWidth: 4) }
                    switch board.face(c) {
                    case nil:
                        break
                    case .back(let owner)?:
                        // A face-down jieqi piece: a disc in its side's colour with rings, no glyph.
                        let disc = Path(ellipseIn: square.insetBy(dx: side * 0.06, dy: side * 0.06))
                        ctx.fill(disc, with: .color(sideInk(owner)))
                        for inset in [0.15, 0.27, 0.39] {
                            ctx.stroke(Path(ellipseIn: square.insetBy(dx: side * inset, dy: side * inset)),
                                       with: .color(Paint(red: 0.98, green: 0.92, blue: 0.78)), lineWidth: 1.5)
                        }
                    case .front(let owner, let glyph, let onDisc)?:
                        let color: Paint = onDisc ? sideInk(owner) : .black
                        if onDisc {
                            let disc = Path(ellipseIn: square.insetBy(dx: side * 0.06, dy: side * 0.06))
                            ctx.fill(disc, with: .color(Paint(red: 0.98, green: 0.92, blue: 0.78)))
                            ctx.stroke(disc, with: .color(color), lineWidth: 2)
                        }
                        ctx.draw(Text(glyph).font(.system(size: side * (onDisc ? 0.55 : 0.75), weight: .bold))
                            .foregroundColor(color), at: p)
                    }
                    if c.target {
                        let r = side * (c.piece != nil ? 0.2 : 0.12)
                        ctx.fill(Path(ellipseIn: CGRect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r)),
                                 with: .color(.green.opacity(0.7)))
                    }
                }
            }
            .contentShape(Rectangle())
            .gesture(DragGesture(minimumDistance: 0).onEnded { v in
                if let c = l.cellAt(x: v.location.x, y: v.location.y) { onTap(c.column, c.row) }
            })
        }
        .aspectRatio(Double(board.width) / Double(board.height), contentMode: .fit)
    }
}

/// The ink of a side's pieces on the xiangqi board: red, or black.
func sideInk(_ side: Side) -> Paint { side == .red ? Paint(red: 0.7, green: 0.05, blue: 0.05) : .black }

/// Jieqi: one side's hidden pieces by kind and count (BancoKit's `PoolShelf`), in its ink.
struct PoolLine: View {
    let shelf: PoolShelf?
    var body: some View {
        if let shelf = shelf {
            Text(shelf.text).font(.footnote).foregroundColor(sideInk(shelf.color)).lineLimit(1).minimumScaleFactor(0.6)
        }
    }
}

/// The move list under a board: Rust's numbered lines (a full move a line), the whole game in
/// a scroll of a fixed height, kept at the last move.
struct MoveListView: View {
    let lines: [String]
    var body: some View {
        ScrollViewReader { proxy in
            ScrollView {
                LazyVStack(alignment: .leading, spacing: 2) {
                    ForEach(Array(lines.enumerated()), id: \.offset) { i, line in
                        Text(line).font(.footnote.monospacedDigit()).id(i)
                    }
                }
                .frame(maxWidth: .infinity, alignment: .leading)
            }
            .frame(height: 72)
            .onChange(of: lines.count) { n in if n > 0 { proxy.scrollTo(n - 1, anchor: .bottom) } }
        }
    }
}

/// The promotion picker, shown when a tap answered `ChoosePromotion`.
struct PromotionPicker: ViewModifier {
    let choices: [PieceKind]?
    let choose: (PieceKind) -> Void
    let cancel: () -> Void

    func body(content: Content) -> some View {
        content.confirmationDialog("Promote to", isPresented: Binding(get: { choices != nil }, set: { if !$0 { cancel() } })) {
            ForEach(choices ?? [], id: \.self) { k in Button(pieceName(k)) { choose(k) } }
        }
    }
}

struct VsScreen: View {
    @ObservedObject var model: VsModel
    @EnvironmentObject var app: AppState
    /// In the background the computer stops and the game is kept (as on Android).
    @Environment(\.scenePhase) private var scenePhase
    /// What follows a game (its title and action): "Next puzzle" in a puzzle, "New game" else.
    var next: (title: String, action: () -> Void)? = nil
    let start: (VsModel) -> Void
    @State private var started = false
    @State private var confirmResign = false

    var body: some View {
        let s = model.state
        VStack {
            if let g = s.game {
                Text(g.result ?? (g.thinking ? "The computer is thinking…" : g.inCheck ? "Check! Your move" : "Your move (level \(g.level))"))
                    .font(.headline)
                if let p = g.puzzle {
                    Text("\(p.name): \(p.goal) · \(p.wrongMoves) wrong, \(p.hintsUsed) hints").font(.subheadline)
                }
                // Jieqi: the last reveal in Rust's words ("cannon h2 revealed: rook"), until the next move.
                if let a = s.announcement { Text(a).font(.subheadline) }
                PoolLine(shelf: g.board.poolShelves?.top)
                BoardCanvas(board: g.board) { model.tap(column: $0, row: $1) }
                PoolLine(shelf: g.board.poolShelves?.bottom)
                MoveListView(lines: g.moveList)
                HStack {
                    Button("Undo") { model.undo() }.disabled(!g.canUndo)
                    Button("Redo") { model.redo() }.disabled(!g.canRedo)
                    Button("Hint") { model.hint() }.disabled(!g.yourTurn || g.hinting)
                    Button("Flip") { model.flip() }
                    if g.claimableDraw != nil { Button("Claim draw") { model.claimDraw() } }
                    Button("Resign", role: .destructive) { confirmResign = true }.disabled(g.outcome != nil)
                        .confirmationDialog("Resign this game?", isPresented: $confirmResign) {
                            Button("Resign", role: .destructive) { model.resign() }
                        }
                }
                .buttonStyle(.bordered)
                // Chess (FIDE 9.2.1.1): a draw claimed with a move that completes the fifty
                // moves or repeats the position a third time; Rust lists the moves and plays
                // the one picked.
                if !s.claimableWith.isEmpty {
                    Menu("Claim draw with…") {
                        ForEach(s.claimableWith, id: \.self) { claim in
                            Button("Claim draw with \(claim.mv.text)") { model.claimDraw(with: claim) }
                        }
                    }
                }
                if g.puzzle == nil {
                    // The computer's level in this game (Rust keeps it with the game; Settings
                    // gives the next game's).
                    Menu("Level \(g.level)") {
                        ForEach(Array(computerLevels), id: \.self) { n in Button("Level \(n)") { model.setLevel(n) } }
                    }
                }
                if let next = next, g.outcome != nil {
                    Button(next.title, action: next.action).buttonStyle(.borderedProminent)
                }
                ShareGameButtons(model: model)
                SetUpFromHere(model: model)
            }
        }
        .padding()
        .modifier(PromotionPicker(choices: s.promotion, choose: model.choosePromotion, cancel: model.cancelPromotion))
        .onAppear { if !started { started = true; start(model) } }
        .onDisappear { model.close() }
        .onChange(of: scenePhase) { phase in
            if phase == .active { model.resume(app.settings) } else { model.pause() }
        }
        .alert(s.message ?? "", isPresented: Binding(get: { s.message != nil }, set: { if !$0 { model.clearMessage() } })) {}
    }
}

struct LobbyScreen: View {
    @EnvironmentObject var app: AppState
    /// The app's (AppState.lobby).
    @ObservedObject var lobby: LobbyModel
    @Environment(\.scenePhase) private var scenePhase
    @State private var address = ""
    @State private var match: MatchModel?
    @State private var failure: String?

    var body: some View {
        VStack {
            List {
                let model = lobby
                if let e = model.state.error { Text(e).foregroundColor(.red) }
                if let b = model.state.bluetooth {
                    // Why Bluetooth is not used; a tap opens Settings when only the player can fix it.
                    Button(b) {
                        if model.state.bluetoothStep == .openSettings, let url = URL(string: UIApplication.openSettingsURLString) {
                            UIApplication.shared.open(url)
                        } else if model.state.bluetoothStep == .askPermissions {
                            app.bluetoothPermission.request {
                                model.restart { try NearbyLobby(interfaces: [], lan: true, ble: $0) }
                            }
                        } else {
                            model.restart { try NearbyLobby(interfaces: [], lan: true, ble: $0) }
                        }
                    }.foregroundColor(.orange)
                }
                if model.state.players.isEmpty { Text("Looking for players nearby…") }
                ForEach(model.state.players, id: \.key) { p in
                    Button("\(p.name) — \(LobbyModel.gamesText(p)) (\(LobbyModel.transportsText(p)))") {
                        openMatch { try model.join(p, settings: app.settings, sound: app.matchSound, trust: app.keptTrust(), onTrust: app.trust.save) }
                    }
                }
            }
            HStack {
                TextField("192.168.1.20:7368", text: $address).textFieldStyle(.roundedBorder)
                Button("Join") {
                    let kept: Data?
                    do { kept = try app.keptTrust() } catch { failure = readable(error); return }
                    // Off the main thread: Rust may ask the DNS for a host name (slow, or stalled offline).
                    MatchModel.joinInBackground(ui: app.ui, name: app.settings.playerName, address: address,
                                                sound: app.matchSound, trust: kept, onTrust: app.trust.save) { made in
                        openMatch { try made.get() }
                    }
                }
            }
            Button("Host \(gameName(app.settings.game)) (Settings to change)") {
                openMatch {
                    // On the LAN, and over Bluetooth when the gate allows it.
                    let model = lobby
                    return try MatchModel.onFreePortIfTaken("0.0.0.0:7368") { address in
                        try model.host(settings: app.settings, address: address, advertise: true, sound: app.matchSound, trust: app.keptTrust(), onTrust: app.trust.save)
                    }
                }
            }
            .buttonStyle(.borderedProminent)
            Button("Host a Lines race (balls, time limit, preview: Settings)") {
                openMatch {
                    // The race as Settings set it, hosted as a board game is: on the LAN, and over
                    // Bluetooth when the gate allows it; the usual port, or any free one if it is taken.
                    let model = lobby
                    return try MatchModel.onFreePortIfTaken("0.0.0.0:7368") { address in
                        try model.host(settings: app.settings, address: address, advertise: true, sound: app.matchSound,
                                       trust: app.keptTrust(), onTrust: app.trust.save, race: true)
                    }
                }
            }
        }
        .padding()
        .navigationTitle("Play nearby")
        // iOS needs the multicast entitlement and NSLocalNetworkUsageDescription +
        // NSBonjourServices (_banco._tcp) in Info.plist (README).
        .onAppear {
            lobby.start { try NearbyLobby(interfaces: [], lan: true, ble: $0) }
            // First visit: the system's Bluetooth prompt, then the lobby again with its answer.
            app.bluetoothPermission.request {
                lobby.restart { try NearbyLobby(interfaces: [], lan: true, ble: $0) }
            }
        }
        .onDisappear { lobby.stop() }
        // Back from Settings (Bluetooth allowed or turned on): the lobby checks again.
        .onChange(of: scenePhase) { phase in
            if phase == .active { lobby.recheck { try NearbyLobby(interfaces: [], lan: true, ble: $0) } }
        }
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

struct MatchScreen: View {
    @EnvironmentObject var app: AppState
    @ObservedObject var model: MatchModel
    @Environment(\.dismiss) private var dismiss
    @State private var confirmingLeave = false

    var body: some View {
        // One screen for the match whatever it shows: switching from the pairing and the
        // proposal to the race must not count as leaving (that ended the race at its start).
        // Leaving resigns a game or race in progress (Rust's rule): asked first then.
        let playing = model.state.match?.phase == .playing
        Group {
            // A race on its screen; once over, until "Back to the match" (BancoKit decides).
            if model.state.showsRace {
                RaceScreen(model: model)
            } else {
                boardGame
            }
        }
        .navigationBarBackButtonHidden(playing)
        .toolbar {
            if playing {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Leave") { confirmingLeave = true }
                }
            }
        }
        .confirmationDialog("Leave the match? The game in progress counts as resigned.",
                            isPresented: $confirmingLeave, titleVisibility: .visible) {
            Button("Leave", role: .destructive) { dismiss() }
        }
        .onDisappear { model.leave() }
    }

    private var boardGame: some View {
        let m = model.state.match
        let notice = model.state.message ?? m?.notice
        return VStack {
            // Bluetooth's own words first (off mid-game, or why a host is on the LAN only).
            if let banner = model.state.bluetooth ?? m?.banner {
                Text(banner).padding(6).frame(maxWidth: .infinity).background(Paint.yellow.opacity(0.6))
            }
            Text(status(m)).font(.headline)
            // Jieqi: the last reveal in Rust's words, until the next move.
            if let a = model.state.announcement { Text(a).font(.subheadline) }
            if let faces = m?.clockFaces {
                // The clocks as Rust shows them (the model reads them again when their text changes).
                HStack {
                    ClockLabel(label: "You", face: faces.you)
                    Spacer()
                    ClockLabel(label: m?.peerName ?? "", face: faces.opponent)
                }
            }
            if let board = m?.board {
                PoolLine(shelf: board.poolShelves?.top)
                BoardCanvas(board: board) { model.tap(column: $0, row: $1) }
                PoolLine(shelf: board.poolShelves?.bottom)
            }
            MoveListView(lines: m?.moveList ?? [])
            HStack {
                let playing = m?.phase == .playing
                Button("Offer draw") { model.offerDraw() }.disabled(!playing)
                Button("Ask undo") { model.requestUndo() }.disabled(!playing || (m?.moves.isEmpty ?? true))
                if m?.claimableDraw != nil { Button("Claim draw") { model.claimDraw() } }
                Button("Resign", role: .destructive) { model.resign() }.disabled(!playing)
                if m?.phase == .over { Button("New game") { model.proposeRematch() } }
            }
            .buttonStyle(.bordered)
            MatchNextGame(model: model, canPropose: m?.canPropose == true)
            if m?.kind != nil { MatchRecordButtons(model: model) }
        }
        .padding()
        .modifier(PromotionPicker(choices: model.state.promotion, choose: model.choosePromotion, cancel: model.cancelPromotion))
        .alert("No more connections", isPresented: .constant(m?.hostPaused == true)) {
            // Too many codes nobody confirmed: Rust takes no connection until asked again.
            Button("Listen again") { model.reopen() }
            Button("Leave", role: .cancel) { model.leave() }
        } message: {
            Text(m?.notice ?? "Several devices showed a code nobody confirmed.")
        }
        // The changed-key warning is part of the pairing question (one alert, read before
        // answering), or an alert of its own the player must close.
        .alert("Pair with \(m?.peerName ?? "")", isPresented: .constant(m?.phase == .verify)) {
            Button("Same code") { model.clearKeyWarning(); model.confirmCode(m?.code ?? "") }
            Button("Different", role: .cancel) { model.clearKeyWarning(); model.rejectCode() }
        } message: {
            Text((model.state.keyWarning.map { "\($0)\n\n" } ?? "")
                 + "Does the other phone show \(m?.code ?? "")? The codes must match exactly.")
        }
        .alert("A different key", isPresented: .constant(model.state.keyWarning != nil && m?.phase != .verify)) {
            Button("I understand") { model.clearKeyWarning() }
        } message: {
            Text(model.state.keyWarning ?? "")
        }
        .modifier(ProposalPrompt(model: model))
        .alert("Take back?", isPresented: .constant(m?.undoRequest != nil)) {
            Button("Allow") { model.replyUndo(true) }
            Button("Refuse", role: .cancel) { model.replyUndo(false) }
        }
        .alert("Draw offered", isPresented: .constant(m?.drawOffered == true)) {
            Button("Accept") { model.replyDraw(true) }
            Button("Decline", role: .cancel) { model.replyDraw(false) }
        }
        .alert(notice ?? "", isPresented: Binding(get: { notice != nil }, set: { if !$0 { model.clearNotice() } })) {}
    }

    private func status(_ m: MatchState?) -> String {
        guard let m = m else { return "Connecting…" }
        switch m.phase {
        case .connecting: return "Connecting…"
        case .listening: return "Waiting for a player (\(m.reachable.first ?? m.address))…"
        case .verify: return "Compare the code with \(m.peerName ?? "")"
        case .waiting: return "Waiting for \(m.peerName ?? "the other player")…"
        case .proposed: return "\(m.peerName ?? "") proposes a game"
        case .playing: return m.yourTurn ? (m.inCheck ? "Check! Your move" : "Your move") : "\(m.peerName ?? "")'s move"
        case .over: return m.result ?? "Game over"
        case .closed: return "The match is over: \(m.closedReason ?? "")"
        }
    }
}

/// The accept prompt of the other player's proposal (a game, or a race: again after one), on
/// the board game's screen and the race's.
struct ProposalPrompt: ViewModifier {
    @ObservedObject var model: MatchModel

    func body(content: Content) -> some View {
        let m = model.state.match
        let title = "\(m?.peerName ?? "") proposes \(m?.proposal.map { gameName($0.game) } ?? "a game")"
        // A set-up start is drawn from this player's side, as Rust gives it, before it is
        // accepted: an alert cannot hold a board, so that proposal is a sheet.
        let board = m?.phase == .proposed ? m?.offeredBoard : nil
        return content
            .sheet(isPresented: .constant(board != nil)) {
                if let board = board {
                    VStack(spacing: 12) {
                        Text(title).font(.headline)
                        BoardCanvas(board: board) { _, _ in }
                        Text(m?.offeredTerms ?? "")
                        HStack {
                            Button("Decline", role: .cancel) { model.declineProposal() }
                            Button("Play") { if let id = m?.proposalId { model.acceptOffer(id) } }
                        }
                    }
                    .padding()
                    .interactiveDismissDisabled()
                }
            }
            .alert(title, isPresented: .constant(m?.phase == .proposed && board == nil)) {
                // The proposal shown (its number): a replaced one is refused, not accepted.
                Button("Play") { if let id = m?.proposalId { model.acceptOffer(id) } }
                Button("Decline", role: .cancel) { model.declineProposal() }
            } message: {
                // Its terms in Rust's words, as Android shows them (a race's options; the
                // colour, rules, set-up start and clock).
                Text(m?.offeredTerms ?? "")
            }
    }
}

/// One clock as Rust shows it: its text, marked while it runs, red when low.
struct ClockLabel: View {
    let label: String
    let face: ClockFace

    var body: some View {
        Text("\(face.running ? "▶ " : "")\(label) \(face.text)")
            .font(.title3.monospacedDigit())
            .foregroundColor(face.running && face.low ? .red : .primary)
    }
}

/// The clock of the games hosted or proposed: untimed or one of Rust's presets.
struct ClockPicker: View {
    @Binding var clock: String

    var body: some View {
        Picker("Clock of the games you host or propose", selection: $clock) {
            Text("Untimed").tag("")
            ForEach(clockPresets(), id: \.name) { Text($0.label).tag($0.name) }
        }
    }
}

/// After a game or between games: either side proposes the game Settings choose (game,
/// colour, rules, clock); the other side gets the accept prompt.
struct MatchNextGame: View {
    @EnvironmentObject var app: AppState
    @ObservedObject var model: MatchModel
    let canPropose: Bool

    var body: some View {
        if canPropose {
            Button("Propose \(gameName(app.settings.game)) (\(offerClockText(clock: app.settings.matchClock)))") {
                model.propose(app.settings)
            }
            .buttonStyle(.bordered)
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
            Picker("Game to host", selection: $settings.game) {
                ForEach(Settings.games, id: \.self) { Text(gameName($0)).tag($0) }
            }
            Stepper("Computer level: \(settings.level)", value: $settings.level, in: computerLevels)
            Picker("Your colour", selection: $settings.color) {
                Text("Red / White (move first)").tag(Side.red)
                Text("Black").tag(Side.black)
            }
            Picker("Rules (xiangqi, jieqi)", selection: $settings.rules) {
                ForEach(offeredPresets(), id: \.name) { Text($0.label).tag($0.name) }
            }
            Toggle("Sound", isOn: $settings.sound)
            Toggle("Lines: show where the next balls land (Lines 98's preview, from the next new game and race)",
                   isOn: $settings.linesPreview)
            // A new solo Lines game's options, as Rust offers them (a continued game keeps its own).
            Picker("A new Lines game: start", selection: $settings.linesStartBalls) {
                ForEach(Settings.linesStartBallChoices, id: \.self) { Text("\($0) balls").tag($0) }
            }
            Picker("A new Lines game: undo", selection: $settings.linesUndo) {
                ForEach(Settings.linesUndoChoices, id: \.name) { Text($0.label).tag($0.undo) }
            }
            Picker("A new Lines game: time", selection: $settings.linesTimeLimitS) {
                ForEach(Settings.linesTimeLimitChoices, id: \.seconds) { Text($0.label).tag(Int($0.seconds)) }
            }
            Picker("Lines hint", selection: $settings.linesHintPlayouts) {
                ForEach(Settings.linesHintChoices, id: \.playouts) { Text($0.label).tag(Int($0.playouts)) }
            }
            Picker("Lines race you host: start", selection: $settings.raceStartBalls) {
                ForEach(Settings.raceStartBallChoices, id: \.self) { Text("\($0) balls").tag($0) }
            }
            Picker("Lines race you host: time", selection: $settings.raceMinutes) {
                ForEach(Settings.raceMinuteChoices, id: \.self) { Text(Settings.raceMinutesLabel($0)).tag($0) }
            }
            ClockPicker(clock: $settings.clock)
            Button("Save") { app.save(settings); dismiss() }
        }
    }
}
#endif
