// Lines in SwiftUI: a square board of balls (Rust's size, `linesBoardSize`) drawn from Rust's cells (0 empty, else the colour
// + 1), the picked ball ringed, with Lines 98's preview each next ball small on the cell
// where it will land, the moved ball walking along its path (BancoKit's BallRun,
// one cell per step, driven by a TimelineView), the solo game (as Settings say: start balls,
// undo, time limit or none) with its best-scores table, and the race screen of a match. Needs
// Xcode: not compiled on the Linux test machine.
#if canImport(SwiftUI)
import SwiftUI
import BancoKit

let linesPalette: [Paint] = [.red, .green, .blue, .yellow, .purple, .cyan, .orange]

/// Cells along a side of a Lines board (Rust's: 9).
let linesSide = Int(linesBoardSize().side)

struct LinesBoard: View {
    let cells: Data
    var selected: Int?
    var reachable: [Int] = []
    /// With the preview: each next ball on its spot, drawn small (BancoKit's `spotBalls`).
    var spots: [SpotBall] = []
    var run: BallRun?
    let onTap: (Int) -> Void
    @State private var runStart = Date()

    var body: some View {
        TimelineView(.animation) { timeline in
            let elapsed = Int64(timeline.date.timeIntervalSince(runStart) * 1000)
            Canvas { ctx, size in
                let side = min(size.width, size.height) / CGFloat(linesSide)
                func rect(_ cell: Int, _ inset: CGFloat) -> CGRect {
                    CGRect(x: CGFloat(cell % linesSide) * side + inset,
                           y: CGFloat(linesSide - 1 - cell / linesSide) * side + inset,
                           width: side - 2 * inset, height: side - 2 * inset)
                }
                let walking = run.flatMap { $0.isDone(at: elapsed) ? nil : $0 }
                // While the ball walks, the board before the turn without it (BancoKit's
                // BallRun.cells(at:after:)): a line it completes is seen whole until it
                // arrives, and the landed balls wait.
                let now = cells.map { Int($0) }
                let shown = run?.cells(at: elapsed, after: now) ?? now
                for cell in 0..<shown.count {
                    ctx.stroke(Path(rect(cell, 0)), with: .color(.gray))
                    if reachable.contains(cell) { ctx.fill(Path(ellipseIn: rect(cell, side * 0.42)), with: .color(.gray)) }
                    let code = shown[cell]
                    if code == 0 { continue }
                    ctx.fill(Path(ellipseIn: rect(cell, side * 0.12)), with: .color(linesPalette[(code - 1) % 7]))
                    if cell == selected { ctx.stroke(Path(ellipseIn: rect(cell, side * 0.06)), with: .color(.black), lineWidth: 3) }
                }
                // The next balls' spots (Lines 98): small balls of their colours, once the walk is done.
                if walking == nil {
                    for spot in spots where (0..<cells.count).contains(spot.cell) && cells[spot.cell] == 0 {
                        ctx.fill(Path(ellipseIn: rect(spot.cell, side * 0.36)), with: .color(linesPalette[spot.color % 7]))
                    }
                }
                if let w = walking {
                    ctx.fill(Path(ellipseIn: rect(w.cell(at: elapsed), side * 0.12)), with: .color(linesPalette[w.color % 7]))
                }
            }
        }
        .aspectRatio(1, contentMode: .fit)
        .onChange(of: run) { _ in runStart = Date() }
        .overlay(GeometryReader { geo in
            Color.clear.contentShape(Rectangle()).onTapGesture(coordinateSpace: .local) { p in
                let side = min(geo.size.width, geo.size.height) / CGFloat(linesSide)
                let file = Int(p.x / side), rank = linesSide - 1 - Int(p.y / side)
                if (0..<linesSide).contains(file), (0..<linesSide).contains(rank) { onTap(rank * linesSide + file) }
            }
        })
    }
}

/// Lines, solo: a new game as Settings say (start balls, undo, time limit or none, preview),
/// with undo, redo, hints and the best scores.
struct LinesScreen: View {
    @ObservedObject var model: LinesModel
    /// A new game's options (start balls, undo, time limit, Lines 98's preview).
    let settings: Settings
    /// In the background the clock stands still (a call must not lose the game).
    @Environment(\.scenePhase) private var scenePhase
    /// The best-scores table shows (a sheet: the game screen stays, its clock too).
    @State private var showBest = false
    let timer = Timer.publish(every: 1, on: .main, in: .common).autoconnect()

    var body: some View {
        let s = model.state
        VStack {
            Text(status(s)).font(.headline)
            if let hint = s.hint {
                Text("Hint: \(hint.text), \(hint.reason)").font(.footnote)
            } else if s.hinting {
                Text("Looking for a hint…").font(.footnote)
            }
            HStack {
                Text("Next:")
                ForEach(Array((s.view?.nextColors ?? Data()).enumerated()), id: \.offset) { _, c in
                    Circle().fill(linesPalette[Int(c) % 7]).frame(width: 16, height: 16)
                }
            }
            if let v = s.view {
                LinesBoard(cells: v.cells, selected: s.selected, reachable: s.reachable, spots: v.spotBalls, run: s.run) {
                    model.tap($0)
                }
            }
            HStack {
                Button("Undo") { model.undo() }.disabled(!s.canUndo)
                Button("Redo") { model.redo() }.disabled(!s.canRedo)
                Button("Hint") { model.hint() }.disabled(!s.canHint)
                Button("New") { model.newGame(settings) }
            }
            .buttonStyle(.bordered)
            Button("Best scores") { showBest = true }
        }
        .padding()
        .navigationTitle("Lines")
        .sheet(isPresented: $showBest) { NavigationStack { LinesBestScores(model: model) } }
        .onAppear {
            model.setHintPlayouts(settings.linesHintPlayouts) // a continued game's hint thinks as chosen too
            if !model.continueGame() { model.newGame(settings) }
        }
        .onReceive(timer) { _ in model.tick() }
        .onChange(of: scenePhase) { phase in
            if phase == .active { model.resume() } else { model.pause() }
        }
        .onDisappear { model.pause() }
    }

    private func status(_ s: LinesModel.State) -> String {
        guard let v = s.view else { return "" }
        let note = v.rankingNote.map { "\n\($0)" } ?? ""
        if s.timeUp { return "Time! \(v.score) points" + note }
        if v.gameOver { return "Board full: \(v.score) points" + (s.rank.map { " (#\($0 + 1) best)" } ?? "") + note }
        let clock = s.timeLeftMs.map { String(format: " · %d:%02d", $0 / 60_000, $0 / 1000 % 60) } ?? ""
        return "\(v.score) points · best \(v.bestScore)\(clock)" + note
    }
}

/// The best-scores table of this game's kind (its label from Rust): Rust's rows (rank, score,
/// turns, date), the last game's marked.
struct LinesBestScores: View {
    @ObservedObject var model: LinesModel

    var body: some View {
        let s = model.state
        List {
            if let kind = s.view?.bestKind { Text(kind.label).font(.subheadline) }
            if s.best.isEmpty { Text("No finished game yet.") }
            ForEach(s.best, id: \.rank) { row in
                Text(row.text).fontWeight(Int(row.rank) == s.rank ? .bold : .regular)
            }
        }
        .navigationTitle("Best scores")
    }
}

/// The race of a match: our board, the opponent's board (small) with its score and balls,
/// time left, the result.
struct RaceScreen: View {
    @ObservedObject var model: MatchModel
    let timer = Timer.publish(every: 1, on: .main, in: .common).autoconnect()

    var body: some View {
        let r = model.state.race
        VStack {
            if let banner = model.state.match?.banner { Text(banner).background(Paint.yellow.opacity(0.6)) }
            Text(status(r)).font(.headline)
            if let b = r?.board {
                LinesBoard(cells: b.cells, selected: model.state.raceSelected, spots: b.spotBalls, run: model.state.raceRun) {
                    model.raceTap($0)
                }
            }
            // The opponent's board as replayed here, small (no taps), with its score and balls.
            if let o = r?.opponent {
                HStack {
                    LinesBoard(cells: o.cells, spots: o.spotBalls) { _ in }
                        .frame(width: 120, height: 120)
                    Text(caption(o)).font(.footnote)
                    Spacer()
                }
            }
            HStack {
                Button("Resign", role: .destructive) { model.raceResign() }.disabled(!(r?.canMove ?? false))
                // Once over: the same race anew (Rust's rematch: same options, a new seed).
                if r?.outcome != nil { Button("Race again") { model.proposeRematch() } }
                // Or the match screen, with the race's result (the same match, as on Android).
                if r?.outcome != nil { Button("Back to the match") { model.backToMatch() } }
            }
            .buttonStyle(.bordered)
            // Or the Settings game (as after a board game, and as Android's race screen): once
            // the other player accepts, Rust drops the race and the match screen shows the
            // board game, with its Save and Share buttons.
            if r?.outcome != nil { MatchNextGame(model: model, canPropose: model.state.match?.canPropose == true) }
        }
        .padding()
        // No pause here: a race's clock runs for both players whatever this screen does.
        .onReceive(timer) { _ in model.tick() }
        // The race again (or a game) proposed by the other player is answered here too.
        .modifier(ProposalPrompt(model: model))
        .alert(notice ?? "", isPresented: Binding(get: { notice != nil }, set: { if !$0 { model.clearNotice() } })) {}
    }

    /// A refused action (ours) or the match's notice, shown once.
    private var notice: String? { model.state.message ?? model.state.match?.notice }

    /// Beside the opponent's small board: whose it is, its score and balls.
    private func caption(_ o: RaceBoard) -> String {
        let whose = model.state.match?.peerName.map { $0 + "'s" } ?? "Their"
        return "\(whose) board: \(o.score) points · \(o.balls) balls"
    }

    private func status(_ r: RaceState?) -> String {
        guard let r else { return "Waiting for the race…" }
        if let o = r.outcome { return o.text }
        let clock = r.timeLeftMs.map { String(format: " · %d:%02d", $0 / 60_000, $0 / 1000 % 60) } ?? ""
        return "You \(r.score) · them \(r.opponentScore) (\(r.opponentBalls) balls)\(clock)"
    }
}
#endif
