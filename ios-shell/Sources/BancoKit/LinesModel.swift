// Lines (Color Lines): a solo game against the clock through Rust's LinesGame, and the
// ball's walk along its path (`BallRun`) that the view paints frame by frame, shared with the
// race screen. Every rule (taps picking a ball then its target, paths, lines, scores, landing
// balls, undo, hints, best scores, the saved game) is in Rust; this keeps the time limit and
// storage, and runs the hint's thinking off the UI thread (a late hint, for a position left
// since, is dropped).
import Foundation

/// With Lines 98's preview: an announced ball and the cell where it will land, drawn as a
/// small ball of its colour there.
public struct SpotBall: Equatable {
    /// The cell (0–80, rank × 9 + file from a1).
    public let cell: Int
    /// The colour (0–6).
    public let color: Int

    public init(cell: Int, color: Int) {
        self.cell = cell
        self.color = color
    }
}

/// Each announced ball on its spot: Rust's `nextSpots` with `nextColors` (the same order);
/// empty in a classic game.
public func spotBalls(spots: Data, colors: Data) -> [SpotBall] {
    zip(spots, colors).map { SpotBall(cell: Int($0), color: Int($1)) }
}

extension LinesView {
    /// The spots of this solo board (see `spotBalls(spots:colors:)`).
    public var spotBalls: [SpotBall] { BancoKit.spotBalls(spots: nextSpots, colors: nextColors) }
}

extension RaceBoard {
    /// The spots of this race board, in a race with the preview (see `spotBalls(spots:colors:)`).
    public var spotBalls: [SpotBall] { BancoKit.spotBalls(spots: nextSpots, colors: nextColors) }
}

/// The moved ball's walk: `path` is every cell it passes, start and target included, in
/// order; `walk` is the board Rust gives to draw meanwhile (`LinesTurn.walkCells`: before
/// the turn, the ball lifted off its start). The view draws `cells(at:after:)` and the ball
/// on `cell(at:)` of the time since the move.
public struct BallRun: Equatable {
    public static let stepMs: Int64 = 45
    public let path: [Int]
    public let color: Int
    public let walk: [Int]

    public init(path: [Int], color: Int, walk: [Int] = []) {
        self.path = path
        self.color = color
        self.walk = walk
    }

    /// The walk of `turn`, as Rust reports it.
    public init(_ turn: LinesTurn) {
        self.init(path: turn.path.map { Int($0) }, color: Int(turn.color), walk: turn.walkCells.map { Int($0) })
    }

    /// How long the walk takes.
    public var durationMs: Int64 { BallRun.stepMs * Int64(max(path.count - 1, 0)) }

    /// The cell the ball is on `elapsedMs` after the move (its target once done).
    public func cell(at elapsedMs: Int64) -> Int {
        path[min(Int(max(elapsedMs, 0) / BallRun.stepMs), path.count - 1)]
    }

    public func isDone(at elapsedMs: Int64) -> Bool { elapsedMs >= durationMs }

    /// The cells to draw `elapsedMs` after the move: Rust's `walk` while the ball walks,
    /// then `after` (the board now).
    public func cells(at elapsedMs: Int64, after: [Int]) -> [Int] {
        isDone(at: elapsedMs) || walk.isEmpty ? after : walk
    }
}

/// A solo game of Lines; used on the UI thread (its calls into Rust are quick; the hint thinks
/// on `background` and comes back through `ui`).
public final class LinesModel: Model {
    public struct State: Equatable {
        /// Rust's board, drawn as it is; nil before the first game.
        public var view: LinesView?
        /// The picked ball, ringed.
        public var selected: Int?
        /// Where the picked ball can go.
        public var reachable: [Int] = []
        /// The last move's walk, to animate; the board already shows the turn's end.
        public var run: BallRun?
        /// The last turn (cleared lines, landed balls, points) for the effects.
        public var lastTurn: LinesTurn?
        /// The suggestion shown (the move and why), for the position on screen.
        public var hint: LinesHint?
        /// The hint is being thought about (off the UI thread): show it, keep the Hint button off.
        public var hinting = false
        /// Time left against the clock; nil without a limit.
        public var timeLeftMs: Int64?
        /// The time is up: the game is over at this score.
        public var timeUp = false
        /// The best scores of this game's kind (`view.bestKind.label` names it), best first: each
        /// row's rank, score, turns, date and text (Rust's).
        public var best: [LinesBestScore] = []
        /// The rank the last game took in the best scores (0 = best).
        public var rank: Int?
        /// A refused move or a damaged saved game, to show once.
        public var message: String?

        public var over: Bool { timeUp || view?.gameOver == true }
        /// The Undo button is on: Rust says a turn can be taken back now (as the settings allow, the time not up).
        public var canUndo: Bool { view?.canUndo == true }
        /// The Redo button is on: a turn taken back can be played again now.
        public var canRedo: Bool { view?.canRedo == true }
        /// The Hint button is on: a game goes on and no hint is being thought about.
        public var canHint: Bool { view != nil && !over && !hinting }
    }

    public static let continueKey = "lines.continue"
    public static let bestKey = "lines.best"
    /// A kept best-scores table that did not decode, set aside (by Rust's policy) before a
    /// new one is kept.
    public static let bestDamagedKey = "lines.best.damaged"

    public private(set) var state = State() {
        willSet { willChange() }
        didSet { didChange() }
    }

    private let ui: UIDispatcher
    /// The game to continue in the store, under Rust's policy (see `continueGame`).
    private let keptGame: KeptSlot
    /// The best scores kept between games, under Rust's policy: a damaged table is set aside
    /// (at `bestDamagedKey`) before a new one replaces it; a newer Banco's is never written
    /// over, and this session's scores are not kept.
    private let keptBest: KeptSlot
    private let now: () -> Int64
    private let background: (@escaping () -> Void) -> Void
    private var game: LinesGame?
    /// Rust's `LinesKeeper`: when the game on screen becomes the game to continue (a new game
    /// at its first turn, so that one started by mistake and left at once does not replace
    /// the game kept) and when it is written to `keptGame`.
    private let keeper: LinesKeeper
    /// Why the kept best scores did not load (Rust's words), until the message is shown (`clearMessage`).
    private var notice: String?

    /// `now`: milliseconds of a monotonic clock (passed in: the tests run their own);
    /// `background` runs the hint's thinking off the UI thread (a global queue unless a test
    /// says otherwise).
    public init(ui: UIDispatcher, store: KeyValueStore,
                now: @escaping () -> Int64 = { Int64(DispatchTime.now().uptimeNanoseconds / 1_000_000) },
                background: @escaping (@escaping () -> Void) -> Void = { block in
                    DispatchQueue.global(qos: .userInitiated).async { block() }
                }) {
        self.ui = ui
        keptGame = KeptSlot(store: KeptStoreOf(store), key: LinesModel.continueKey, kind: .linesGame)
        keptBest = KeptSlot(store: KeptStoreOf(store), key: LinesModel.bestKey, kind: .linesBestScores)
        keeper = LinesKeeper(slot: keptGame)
        self.now = now
        self.background = background
        super.init()
        // The best scores kept between games.
        let best = try? keptBest.read()
        if let bytes = best?.bytes { try? scratch()?.loadBestScores(bytes: bytes) }
        notice = best?.notice
        if let n = notice { state.message = n }
    }

    /// The one game object, made on first use: its best scores and hint strength stay
    /// through new and continued games.
    private func scratch() -> LinesGame? {
        if game == nil { game = try? LinesGame(settings: LinesSettings(startBalls: 5, undo: .lastTurn), seed: nil) }
        return game
    }

    /// How hard the hint thinks (playouts a move: one of `Settings.linesHintChoices`); Rust's,
    /// 100 until set.
    public var hintPlayouts: Int { Int(scratch()?.hintPlayouts() ?? linesDefaultOptions().hintPlayouts) }

    /// Sets how hard the hint thinks, for this game and the next ones (a settings screen's
    /// choice, `Settings.linesHintPlayouts`); false with a message if Rust refuses it (more
    /// than it allows), the strength unchanged.
    @discardableResult
    public func setHintPlayouts(_ playouts: Int) -> Bool {
        guard let p = UInt32(exactly: playouts) else {
            state.message = "A hint cannot think \(playouts) playouts a move"
            return false
        }
        do {
            try scratch()?.setHintPlayouts(playouts: p)
        } catch {
            state.message = readable(error)
            return false
        }
        return true
    }

    /// A new game with the Lines options of `settings` (start balls, undo, time limit — 0:
    /// untimed — the preview, and the hint's strength); `seed` repeats a game, and `seedKnown`
    /// keeps it out of the best scores (see the other `newGame`). False, with a message, if
    /// refused.
    @discardableResult
    public func newGame(_ settings: Settings, seed: UInt64? = nil, seedKnown: Bool = false) -> Bool {
        setHintPlayouts(settings.linesHintPlayouts)
            && newGame(startBalls: settings.linesStartBalls, undo: settings.linesUndo, timeLimitS: settings.linesTimeLimitS,
                       seed: seed, preview: settings.linesPreview, seedKnown: seedKnown)
    }

    /// A new game with `startBalls` (3 or 5), against the clock if `timeLimitS` > 0, with
    /// Lines 98's preview if `preview` (the view's `nextSpots`, drawn with `spotBalls`); `seed`
    /// repeats a game (tests, a shared challenge). A game whose seed the player may know — a
    /// shared challenge, a replay of a seed — passes `seedKnown`: its balls can be known in
    /// advance, so it never enters the best scores (Rust's `markSeedKnown`, kept in its save
    /// and shown as the view's `seedKnown`). False, with a message, if refused.
    @discardableResult
    public func newGame(startBalls: Int = 5, undo: LinesUndo = .lastTurn, timeLimitS: Int = 0, seed: UInt64? = nil,
                        preview: Bool = false, seedKnown: Bool = false) -> Bool {
        let settings = LinesSettings(startBalls: UInt8(clamping: startBalls), undo: undo, preview: preview)
        do {
            guard let g = scratch() else { return false }
            try g.newGame(settings: settings, seed: seed)
        } catch {
            state.message = readable(error)
            return false
        }
        if seedKnown { game?.markSeedKnown() }
        // The clock is Rust's (time passed in): it ends the game, and the save keeps it.
        if timeLimitS > 0 { game?.startClock(limitMs: UInt64(timeLimitS) * 1000, nowMs: UInt64(now())) }
        keeper.begin(fromStore: false)
        state = State(best: game?.bestScoresOfGame() ?? [], message: notice)
        refresh(run: nil, turn: nil)
        return true
    }

    public var canContinue: Bool { keptGame.isPresent() }

    /// Continues the kept game, against the clock with the time it had left when it was kept
    /// (the clock stands still while the game is off screen); false with a message if it
    /// cannot be opened. Rust's policy (`KeptSlot`) reads it: a damaged game is set aside;
    /// one saved by a newer Banco is kept (the message says to update the app).
    @discardableResult
    public func continueGame() -> Bool {
        do {
            let read = try keptGame.read()
            guard let bytes = read.bytes else {
                if let notice = read.notice { state.message = notice }
                return false
            }
            guard let g = scratch() else { return false }
            try g.restore(bytes: bytes)
        } catch {
            state.message = "The saved game could not be continued: \(readable(error))"
            return false
        }
        keeper.begin(fromStore: true)
        scratch()?.resumeClock(nowMs: UInt64(now()))
        state.best = scratch()?.bestScoresOfGame() ?? []
        state.rank = nil
        refresh(run: nil, turn: nil)
        return true
    }

    /// A tap on board cell `cell` (rank × 9 + file from a1): Rust picks the ball, picks
    /// another, puts it down or moves it (the turn, returned); a cell out of reach is the message.
    @discardableResult
    public func tap(_ cell: Int) -> LinesTurn? {
        tick()
        guard let g = game, !state.over, let c = UInt8(exactly: cell), let t = try? g.tap(cell: c) else { return nil }
        switch t {
        case .moved(let turn):
            refresh(run: BallRun(turn), turn: turn)
            return turn
        case .selected(let picked, let reachable):
            state.selected = Int(picked)
            state.reachable = reachable.map { Int($0) }
        case .unreachable(let message):
            state.message = message
        case .deselected, .ignored:
            state.selected = nil
            state.reachable = []
        }
        return nil
    }

    /// Plays `from` → `to`; a refusal (no path, …) becomes the message and keeps the pick.
    @discardableResult
    public func play(_ from: Int, _ to: Int) -> LinesTurn? {
        // The clock first: a move after the time ran out is refused, not counted.
        tick()
        guard let g = game, !state.over, let f = UInt8(exactly: from), let t = UInt8(exactly: to) else { return nil }
        do {
            let turn = try g.play(from: f, to: t)
            refresh(run: BallRun(turn), turn: turn)
            return turn
        } catch {
            state.message = readable(error)
            return nil
        }
    }

    /// Takes the last turn back (as the settings allow). Taking back the end of a full board
    /// takes its entry out of the best scores too (Rust does; the kept table follows).
    public func undo() {
        guard let g = game, !state.timeUp else { return }
        let ended = state.view?.gameOver == true
        do { try g.undo() } catch {
            state.message = readable(error)
            return
        }
        if ended {
            keepBest(g)
            state.best = g.bestScoresOfGame()
            state.rank = nil
        }
        refresh(run: nil, turn: nil)
    }

    /// Plays the last turn taken back again (the same balls land); nil when there is none.
    @discardableResult
    public func redo() -> LinesTurn? {
        guard let g = game, !state.timeUp, let turn = g.redo() else { return nil }
        refresh(run: BallRun(turn), turn: turn)
        return turn
    }

    /// Asks for the computer's suggestion and its reason: Rust thinks on `background`
    /// (`state.hinting` meanwhile) and the hint shows in `state.hint` — unless the position
    /// changed since (a move, undo, redo, new game, continue or the time up), when it is dropped.
    public func hint() {
        guard let g = game, state.canHint, let job = g.hintJob() else { return }
        // Asking counts (Rust's): the view, the kind's table and the kept game say so now.
        var s = state
        s.view = g.view()
        s.best = g.bestScoresOfGame()
        s.hinting = true
        s.hint = nil
        state = s
        keep(g)
        let ui = self.ui
        background { [weak self] in
            let hint = job.run()
            ui.post {
                // A late answer, for a position left since (Rust's judgement): dropped.
                guard let self = self, self.game?.hintIsCurrent(job: job) == true else { return }
                var s = self.state
                s.hint = hint
                s.hinting = false
                self.state = s
            }
        }
    }

    /// The app went to the background (a call, another app): the clock stands still and
    /// the game is kept, so the time away is not lost. `resume()` starts it again.
    public func pause() {
        guard let g = game, !state.over else { return }
        g.pauseClock(nowMs: UInt64(now()))
        if let failed = keeper.pause(game: g) { state.message = failed }
    }

    /// The app is active again: the clock runs on from the time it had.
    public func resume() {
        guard let g = game, !state.over else { return }
        g.resumeClock(nowMs: UInt64(now()))
        refresh(run: nil, turn: nil)
    }

    /// Runs the clock: call about once a second while the game shows.
    public func tick() {
        guard let g = game, let left = g.tick(nowMs: UInt64(now())).map({ Int64($0) }) else { return }
        if left == 0 && !state.timeUp {
            // Rust ended the game where it stands; its score then enters the best scores.
            var s = state
            s.hinting = false
            s.view = g.view()
            s.timeLeftMs = 0
            s.timeUp = true
            s.selected = nil
            s.reachable = []
            s.hint = nil
            state = s
            finish()
        } else if !state.over {
            // Kept with each move and on pause, not every second.
            state.timeLeftMs = left
        }
    }

    public func clearMessage() {
        if state.message == notice { notice = nil }
        state.message = nil
    }

    private func refresh(run: BallRun?, turn: LinesTurn?) {
        guard let g = game else { return }
        let left = g.tick(nowMs: UInt64(now())).map { Int64($0) }
        let view = g.view()
        var s = state
        s.view = view
        s.hinting = false
        s.selected = nil
        s.reachable = []
        s.run = run
        s.lastTurn = turn
        s.hint = nil
        s.timeLeftMs = left
        s.timeUp = left == 0
        state = s
        if view.gameOver { finish() } else { keep(g) }
    }

    /// Rust's keeper writes the game (its clock's time left with it) once it is the game to continue.
    private func keep(_ g: LinesGame) {
        if let failed = keeper.observe(game: g) { state.message = failed }
    }

    /// The game ended (board full or time up): into the best scores, nothing to continue
    /// (Rust's keeper empties it).
    private func finish() {
        guard let g = game else { return }
        keep(g)
        let day = ISO8601DateFormatter().string(from: Date()).prefix(10)
        if let r = g.recordResult(date: String(day)) { state.rank = Int(r) }
        keepBest(g)
        state.best = g.bestScoresOfGame()
    }

    /// Writes the best scores (Rust's policy refuses when the kept table is a newer Banco's).
    private func keepBest(_ g: LinesGame) {
        if let bytes = try? g.bestScoresBytes() { _ = try? keptBest.write(bytes: bytes) }
    }
}
