// The puzzle screen: Banco's bundled collection by tier, one puzzle at a time on the game
// screen's model, and the player's record kept in the key-value store. Rust has every rule
// (banco-app's puzzle mode): the proven mates and their tiers, the computer's longest
// defence, a wrong move taken back and counted, hints counted once per position, the record
// updated by the try itself and written to the store (`PuzzleProgress.openKept`). This model forwards, and
// shows Rust's typed notices in Rust's words (`puzzleNoticeText`).
import Foundation

public final class PuzzleModel: Model {
    /// A tier as the list shows it.
    public struct TierRow: Equatable {
        public let info: PuzzleTierInfo
        public let solved: Int
    }

    public struct State: Equatable {
        /// The puzzle on the board; nil while choosing.
        public var current: CollectionPuzzle?
        /// Rust's notice to show once (a wrong move taken back, solved, a damaged record).
        public var notice: PuzzleNotice?
        /// A refused start, to show once.
        public var message: String?
    }

    /// Where the record is kept (`PuzzleProgress` bytes, Base64).
    public static let progressKey = "puzzles.progress"
    /// A record Rust could not read, set aside (by Rust) before it is written over.
    public static let progressDamagedKey = "puzzles.progress.damaged"

    public private(set) var state = State() {
        willSet { willChange() }
        didSet { didChange() }
    }

    private let game: VsModel
    private let progress: PuzzleProgress
    private var observation: Int?
    /// The notice shown last, with the wrong moves then: a late state repeating it is not shown twice.
    private var shown: (PuzzleNotice, UInt32)?

    public init(game: VsModel, store: KeyValueStore) {
        self.game = game
        // Read and written by Rust: a record it could not read starts afresh, its text set
        // aside first at `progressDamagedKey` (as the CLI's `.damaged` copy); a newer
        // Banco's is never written over.
        progress = PuzzleProgress.openKept(store: KeptStoreOf(store), key: PuzzleModel.progressKey)
        super.init()
        state.notice = progress.takeNotice()
    }

    /// The games with a puzzle collection (Rust's: xiangqi and chess), in Rust's order.
    public func games() -> [GameKind] { puzzleGames() }

    /// The tiers of `kind`'s collection, easiest first, with how many of each the player has solved.
    public func tiers(_ kind: GameKind = .xiangqi) -> [TierRow] {
        let solved = Dictionary(((try? progress.tiersOf(kind: kind)) ?? []).map { ($0.tier, Int($0.solved)) }) { a, _ in a }
        return puzzleTiersOf(kind: kind).map { TierRow(info: $0, solved: solved[$0.tier] ?? 0) }
    }

    /// The puzzles of `kind`'s `tier`, easiest first, with what each took so far.
    public func puzzles(_ tier: PuzzleTier, kind: GameKind = .xiangqi) -> [(CollectionPuzzle, PuzzleRecord)] {
        collectionPuzzlesOf(kind: kind, tier: tier).map { ($0, record($0.id)) }
    }

    /// What puzzle `id` took so far (all zero if never tried).
    public func record(_ id: String) -> PuzzleRecord {
        (try? progress.record(id: id)) ?? PuzzleRecord(solved: false, attempts: 0, hints: 0)
    }

    /// Starts puzzle `id` on the game screen's model; false (with a message) if refused.
    @discardableResult
    public func start(_ id: String, settings: Settings, movetimeMs: UInt64 = 1000) -> Bool {
        guard let p = collectionPuzzle(id: id) else { return refuse("There is no puzzle \(id)") }
        if observation == nil { observation = game.observe { [weak self] in self?.onGame() } }
        shown = nil
        state = State(current: p)
        guard game.tryPuzzle(id, progress: progress, settings: settings, movetimeMs: movetimeMs) else {
            return refuse(game.state.message ?? "The puzzle could not start")
        }
        return true
    }

    /// The first puzzle of `kind` not solved yet, easiest first; false when every one is solved.
    @discardableResult
    public func startNext(settings: Settings, kind: GameKind = .xiangqi, movetimeMs: UInt64 = 1000) -> Bool {
        guard let next = try? progress.nextUnsolvedOf(kind: kind) else {
            return refuse("Every \(gameName(kind)) puzzle is solved!")
        }
        return start(next.id, settings: settings, movetimeMs: movetimeMs)
    }

    /// After a puzzle (the game screen's "Next puzzle"): the first unsolved puzzle of the same
    /// game; never an ordinary game, so the game to continue stays as it was.
    @discardableResult
    public func next(settings: Settings, movetimeMs: UInt64 = 1000) -> Bool {
        startNext(settings: settings, kind: state.current?.puzzle.kind ?? .xiangqi, movetimeMs: movetimeMs)
    }

    /// A puzzle of the collection is on the game screen's model.
    public var playing: Bool { state.current != nil && game.state.game?.puzzle != nil }

    /// A hint: Rust shows the mate's next move on the board and counts it.
    public func hint() { game.hint() }

    /// The notice (or message) was shown.
    public func clearMessage() {
        if state.notice != nil && game.state.game?.puzzle?.notice != nil { game.clearPuzzleNotice() }
        state.notice = nil
        state.message = nil
    }

    /// Leaving the puzzle screen (the game screen's model stops its computer).
    public func close() {
        if let o = observation { game.unobserve(o) }
        observation = nil
        game.close()
        state = State()
    }

    private func onGame() {
        guard let status = game.state.game?.puzzle, let notice = status.notice,
              state.current?.id == status.id else { return }
        if let s = shown, s.0 == notice, s.1 == status.wrongMoves { return }
        shown = (notice, status.wrongMoves)
        state.notice = notice
    }

    private func refuse(_ text: String) -> Bool {
        state.current = nil
        state.message = text
        return false
    }
}

extension PuzzleNotice {
    /// Rust's puzzle notice in Rust's words ("Not that move: … Try another.", "Solved! Clean.").
    public var words: String { puzzleNoticeText(notice: self) }
}
