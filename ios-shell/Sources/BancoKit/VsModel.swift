// A game against the computer: holds Rust's VsComputer (which has every rule: turns, the
// computer's searches, undo by whole turns, hints, results, puzzles) and adds the platform
// services — states hopped to the UI thread, the promotion picker, sounds, and the game to
// continue kept in the key-value store.
import Foundation

public final class VsModel: Model {
    public struct State: Equatable {
        /// Everything to draw, from Rust; nil before a game starts.
        public var game: VsState?
        /// A refused action or a game that could not start, to show once.
        public var message: String?
        /// The app is in the background: the computer stopped, the game is kept (`resume`).
        public var paused = false
        /// Jieqi: the last move's reveal in Rust's words ("cannon h2 revealed: rook"), until the next move.
        public var announcement: String? { game?.lastMove?.announcement }
        /// The promotion picker is open with these choices (Rust's board says so).
        public var promotion: [PieceKind]? { game?.board.promotion?.choices }
        /// Chess: the player's moves a draw may be claimed with (FIDE 9.2.1.1), Rust's list:
        /// offer "Claim a draw with Rd1" for each, then call `claimDraw(with:)`; empty otherwise.
        public var claimableWith: [ClaimableMove] { game?.claimableWith ?? [] }
    }

    /// Where the game to continue is kept (`VsComputer.save()` bytes, Base64); a damaged
    /// one is set aside at `vs.continue.damaged`.
    public static let continueKey = "vs.continue"

    public private(set) var state = State() {
        willSet { willChange() }
        didSet { didChange() }
    }

    private let ui: UIDispatcher
    /// The game to continue in the store, under Rust's policy: a damaged one is set aside,
    /// one saved by a newer Banco is kept and never written over (its notice says to update
    /// the app).
    private let kept: KeptSlot
    private let sound: SoundPlayer
    private var soundOn = true
    private var vs: VsComputer?
    private var puzzleMode = false
    /// Rust's `GameKeeper`: when the game on screen becomes the game to continue (a new game
    /// at the player's first move) and when it is written to `kept`.
    private let keeper: GameKeeper
    /// Counts the games started: a state of an earlier game that arrives late is dropped.
    private var generation = 0

    public init(ui: UIDispatcher, store: KeyValueStore, sound: SoundPlayer = SilentSound()) {
        self.ui = ui
        self.kept = KeptSlot(store: KeptStoreOf(store), key: Self.continueKey, kind: .game)
        self.keeper = GameKeeper(slot: kept)
        self.sound = sound
    }

    /// Hears Rust's states on its thread and hands them to the UI thread.
    final class Listener: VsListener, @unchecked Sendable {
        weak var model: VsModel?
        let generation: Int
        let ui: UIDispatcher
        init(_ m: VsModel) {
            model = m
            generation = m.generation
            ui = m.ui
        }
        func onState(state: VsState) {
            let g = generation
            ui.post { [weak model = self.model] in model?.received(state, g) }
        }
    }

    /// A new game; false (with the message) if Rust refused the settings. The game to
    /// continue stays until the player's first move in this one.
    @discardableResult
    public func newGame(_ settings: Settings, fen: String? = nil, movetimeMs: UInt64 = 1000,
                        chanceSeed: UInt64? = nil) -> Bool {
        start(settings, puzzle: false, keep: false) {
            try VsComputer(settings: settings.vs(fen: fen, movetimeMs: movetimeMs, chanceSeed: chanceSeed), listener: $0)
        }
    }

    /// A built-in puzzle (`builtinPuzzles()`); it is not kept to continue.
    @discardableResult
    public func puzzle(_ p: Puzzle, settings: Settings, movetimeMs: UInt64 = 1000) -> Bool {
        start(settings, puzzle: true, keep: false) { try VsComputer.puzzle(puzzle: p, movetimeMs: movetimeMs, listener: $0) }
    }

    /// A try at the collection's puzzle `id` in Rust's puzzle mode, recorded in `progress`.
    @discardableResult
    public func tryPuzzle(_ id: String, progress: PuzzleProgress, settings: Settings, movetimeMs: UInt64 = 1000) -> Bool {
        start(settings, puzzle: true, keep: false) {
            try VsComputer.tryPuzzle(id: id, progress: progress, movetimeMs: movetimeMs, listener: $0)
        }
    }

    /// The puzzle's notice (`game.puzzle?.notice`) was shown.
    public func clearPuzzleNotice() { act { try vs?.clearNotice() } }

    /// A game opened from a shared record (`GameShare.open`); the player goes on as
    /// `settings` say; it becomes the game to continue at the player's first move.
    @discardableResult
    public func openSaved(_ bytes: Data, settings: Settings, movetimeMs: UInt64 = 1000) -> Bool {
        start(settings, puzzle: false, keep: false) { try VsComputer.resume(saved: bytes, settings: settings.vs(movetimeMs: movetimeMs), listener: $0) }
    }

    /// The game on screen in the one save format, to share it (`GameShare.pgn`); nil if none.
    public func saved() -> Data? { try? vs?.save() }

    public var canContinue: Bool { kept.isPresent() }

    /// Continues the kept game; false (with a message) if there is none or it cannot be
    /// opened. Rust's policy (`KeptSlot`) reads it: a damaged record is set aside; one saved
    /// by a newer Banco is kept (the message says to update the app), and so is one refused
    /// for any other reason.
    @discardableResult
    public func continueGame(_ settings: Settings) -> Bool {
        let read: KeptRead
        do { read = try kept.read() } catch { return refuseContinue(readable(error)) }
        guard let bytes = read.bytes else {
            if let notice = read.notice { state.message = notice }
            return false
        }
        return resume(from: bytes, settings, fromStore: true)
    }

    /// Continues `bytes`; `fromStore`: they are the store's (kept to continue from the start).
    private func resume(from bytes: Data, _ settings: Settings, fromStore: Bool) -> Bool {
        let ok = start(settings, puzzle: false, keep: fromStore) {
            try VsComputer.resume(saved: bytes, settings: settings.vs(), listener: $0)
        }
        return ok || refuseContinue(state.message ?? "")
    }

    public func tap(column: Int, row: Int) {
        guard let vs = vs, let c = UInt8(exactly: column), let r = UInt8(exactly: row) else { return }
        act { _ = try vs.tap(column: c, row: r) }
    }

    /// The piece picked in the promotion picker.
    public func choosePromotion(_ kind: PieceKind) {
        act { _ = try vs?.choosePromotion(piece: kind) }
    }

    /// The picker was dismissed: nothing is played and the pawn is deselected.
    public func cancelPromotion() {
        act { try vs?.clearSelection() }
    }

    public func undo() { act { try vs?.undo() } }
    public func redo() { act { try vs?.redo() } }
    public func hint() { act { try vs?.hint() } }
    public func resign() { act { try vs?.resign() } }
    public func claimDraw() { act { try vs?.claimDraw() } }
    /// Claims a draw with `claim`'s move, one of `VsState.claimableWith` (chess; FIDE
    /// 9.2.1.1): Rust plays the move and ends the game drawn (undo takes both back); a
    /// refusal becomes the message, nothing played.
    public func claimDraw(with claim: ClaimableMove) { act { _ = try vs?.claimDrawWith(mv: claim.mv.played) } }
    public func flip() { act { try vs?.flip() } }
    public func setLevel(_ level: Int) { act { try vs?.setLevel(level: UInt8(clamping: level)) } }
    public func setSound(_ on: Bool) { soundOn = on }
    public func clearMessage() { state.message = nil }

    /// The app went to the background (as Android's `GameController.pause`): the computer
    /// stops and the game is kept; a puzzle or a finished game stays as it is.
    /// A new game without the player's move yet is held here, not in the store.
    public func pause() {
        guard !puzzleMode, let v = vs, state.game?.outcome == nil else { return }
        if let failed = keeper.pause(game: v) { state.message = failed }
        close()
        state.paused = true
    }

    /// Back in the foreground: the paused game goes on (the computer thinks again if it
    /// was its turn).
    @discardableResult
    public func resume(_ settings: Settings) -> Bool {
        guard state.paused else { return false }
        state.paused = false
        if let held = keeper.takeHeld() { return resume(from: held, settings, fromStore: false) }
        return continueGame(settings)
    }

    /// Leaving the screen: the computer stops (the game stays kept to continue).
    public func close() {
        generation += 1
        try? vs?.end()
        vs = nil
    }

    /// Replaces the game by the one `make` makes, `keep`ing it to continue from the start (a
    /// continued game) or from the player's first move.
    private func start(_ settings: Settings, puzzle: Bool, keep: Bool, _ make: (Listener) throws -> VsComputer) -> Bool {
        close()
        soundOn = settings.sound
        puzzleMode = puzzle
        do {
            let v = try make(Listener(self))
            vs = v
            state = State()
            if let failed = try? keeper.begin(game: v, fromStore: keep, puzzle: puzzle) { state.message = failed }
            return true
        } catch {
            state = State(message: readable(error))
            return false
        }
    }

    /// The game to continue could not start: said.
    private func refuseContinue(_ why: String) -> Bool {
        state.message = "The saved game could not be continued: \(why)"
        return false
    }

    private func act(_ body: () throws -> Void) {
        do { try body() } catch { state.message = readable(error) }
    }

    private func received(_ new: VsState, _ of: Int) {
        guard of == generation, let vs = vs else { return }
        let old = state.game
        if let old = old {
            if new.moves.count > old.moves.count, let last = new.lastMove, soundOn { sound.play(soundOf(last)) }
            if new.outcome != nil && old.outcome == nil && soundOn { sound.play(.gameOver) }
        }
        // Rust's keeper writes the game to continue when what its save holds changed.
        if let failed = keeper.observe(game: vs, state: new) { state.message = failed }
        state.game = new
    }
}
