// The puzzle screen: Banco's bundled collection by tier, one puzzle at a time on the game
// screen's model, and the player's progress kept in the key-value store. Rust has every rule:
// the proven mates and their tiers, the computer's longest defence, when a puzzle is solved or
// a move lets the king escape, the hints (the mate's next move), the progress record. This
// model records what happened and takes a wrong move back with a word.
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
        /// It was solved in this try.
        public var solved = false
        /// Wrong moves taken back in this try.
        public var wrongMoves = 0
        /// A word to show once (a wrong move taken back, a damaged record).
        public var message: String?
    }

    /// Where the progress is kept (`PuzzleProgress.save()` bytes, Base64).
    public static let progressKey = "puzzles.progress"

    public private(set) var state = State() {
        willSet { willChange() }
        didSet { didChange() }
    }

    private let game: VsModel
    private let store: KeyValueStore
    private var progress = PuzzleProgress()
    /// A failed try is being taken back (one undo per wrong move).
    private var retracting = false
    /// The number of moves on the board when the last hint was counted.
    private var hintedAt = -1
    private var observation: Int?

    public init(game: VsModel, store: KeyValueStore) {
        self.game = game
        self.store = store
        super.init()
        if let text = store.string(Self.progressKey) {
            if let bytes = Data(base64Encoded: text), let p = try? PuzzleProgress.load(bytes: bytes) {
                progress = p
            } else {
                state.message = "Your puzzle record could not be read and starts afresh"
            }
        }
    }

    /// The tiers, easiest first, with how many of each the player has solved.
    public func tiers() -> [TierRow] {
        let solved = Dictionary(((try? progress.tiers()) ?? []).map { ($0.tier, Int($0.solved)) }) { a, _ in a }
        return puzzleTiers().map { TierRow(info: $0, solved: solved[$0.tier] ?? 0) }
    }

    /// The puzzles of `tier`, easiest first, with what each took so far.
    public func puzzles(_ tier: PuzzleTier) -> [(CollectionPuzzle, PuzzleRecord)] {
        collectionPuzzles(tier: tier).map { ($0, record($0.id)) }
    }

    /// What puzzle `id` took so far (all zero if never tried).
    public func record(_ id: String) -> PuzzleRecord {
        (try? progress.record(id: id)) ?? PuzzleRecord(solved: false, attempts: 0, hints: 0)
    }

    /// Starts puzzle `id` on the game screen's model; false (with a message) if refused.
    @discardableResult
    public func start(_ id: String, settings: Settings, movetimeMs: UInt64 = 1000) -> Bool {
        guard let p = collectionPuzzle(id: id) else {
            state.message = "There is no puzzle \(id)"
            return false
        }
        if observation == nil { observation = game.observe { [weak self] in self?.onGame() } }
        retracting = false
        hintedAt = -1
        state = State(current: p)
        guard game.puzzle(p.puzzle, settings: settings, movetimeMs: movetimeMs) else {
            state = State(message: game.state.message)
            return false
        }
        try? progress.attempted(id: p.id)
        save()
        return true
    }

    /// The first puzzle not solved yet, easiest first; false when every one is solved.
    @discardableResult
    public func startNext(settings: Settings, movetimeMs: UInt64 = 1000) -> Bool {
        guard let next = try? progress.nextUnsolved() else {
            state.message = "Every puzzle is solved!"
            return false
        }
        return start(next.id, settings: settings, movetimeMs: movetimeMs)
    }

    /// A hint: Rust shows the mate's next move on the board (the record counts it).
    public func hint() {
        guard state.current != nil, game.state.game?.yourTurn == true else { return }
        game.hint()
    }

    public func clearMessage() { state.message = nil }

    /// Leaving the puzzle screen (the game screen's model stops its computer).
    public func close() {
        if let o = observation { game.unobserve(o) }
        observation = nil
        game.close()
        state = State()
    }

    /// Every state of the board: a solve is recorded, a failed try is taken back.
    private func onGame() {
        guard let p = state.current, let vs = game.state.game, let status = vs.puzzle,
              status.name == p.puzzle.name else { return }
        // A hint asked for here or on the game screen counts once per position.
        if vs.hint != nil && hintedAt != vs.moves.count {
            hintedAt = vs.moves.count
            try? progress.hintUsed(id: p.id)
            save()
        }
        if status.solved && !state.solved {
            try? progress.solved(id: p.id)
            save()
            state.solved = true
            state.message = "Solved: \(p.puzzle.name)"
        } else if status.failed && !retracting && !vs.thinking {
            retracting = true
            state.wrongMoves += 1
            state.message = "Not that move: the king escapes after \(vs.lastMove?.text ?? "the reply"). Try another."
            game.undo()
        } else if !status.failed {
            retracting = false
        }
    }

    private func save() {
        guard let bytes = try? progress.save() else { return }
        store.set(Self.progressKey, bytes.base64EncodedString())
    }
}
