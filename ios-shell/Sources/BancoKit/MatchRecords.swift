// Saving and sharing a networked game: the record Rust keeps of the match's game
// (`Match.game()`, with how it ended — a resignation, a loss on time, an agreed draw — which
// the moves do not show), kept among the player's saved matches in the key-value store,
// opened again like a shared record (`VsModel.openSaved`), or shared as PGN with both players
// named on their sides.
import Foundation

/// The matches the player saved, newest first (at most `limit`), kept in the store: Rust's
/// `SavedMatches` keeps the list (its format, the oldest dropped past `limit`, damaged records
/// left out), labels each record and writes the words; this only hands it the store.
public final class MatchRecords {
    /// The most matches kept (Rust's).
    public static var limit: Int { Int(savedMatchesLimit()) }
    private let records: SavedMatches

    public init(store: KeyValueStore) { records = SavedMatches(store: KeptStoreOf(store)) }

    /// Keeps `saved` (a record from `MatchModel.saved()`) first; the oldest beyond `limit`
    /// go. The words to show (Rust's): "Saved", and which match made room if one did (never silently).
    @discardableResult
    public func save(_ saved: Data) -> String { records.save(saved: saved) }

    /// The saved matches, newest first, each with Rust's label (`label`, `saved`); a damaged
    /// one is left out.
    public func list() -> [SavedMatch] { records.list() }

    /// The PGN of a match's record `saved` (`MatchModel.saved()`) as of state `s`: this player
    /// (`playerName`) and the other one named on their sides, the day of `date` where the player
    /// is (`timeZone`).
    public static func pgn(_ saved: Data, _ s: MatchState, playerName: String, date: Date,
                           timeZone: TimeZone = .current) throws -> String {
        let g = try Game.load(bytes: saved)
        // Rust names the players on their sides and writes PGN's date.
        return try g.toPgn(tags: pgnRecordTags(kind: try g.kind(), event: "Banco match",
                                               date: GameShare.day(date, timeZone: timeZone), me: s.yourColor ?? .red,
                                               myName: playerName, otherName: s.peerName ?? "Opponent"))
    }
}
