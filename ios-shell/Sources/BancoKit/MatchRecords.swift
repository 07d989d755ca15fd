// Saving and sharing a networked game: the record Rust keeps of the match's game
// (`Match.game()`, with how it ended — a resignation, a loss on time, an agreed draw — which
// the moves do not show), kept among the player's saved matches in the key-value store,
// opened again like a shared record (`VsModel.openSaved`), or shared as PGN with both players
// named on their sides.
import Foundation

/// The matches the player saved, newest first (at most `limit`), kept in the store.
public final class MatchRecords {
    /// A saved match: its label for a list (Rust's "Chess · 0-1 resignation · 12 plies") and its record.
    public struct Entry: Equatable {
        public let label: String
        public let saved: Data
    }

    /// The most matches kept.
    public static let limit = 20
    private static let key = "match.records"
    private let store: KeyValueStore

    public init(store: KeyValueStore) { self.store = store }

    /// Keeps `saved` (a record from `MatchModel.saved()`) first; the oldest beyond `limit`
    /// go. The words to show: "Saved", and which match made room if one did (never silently).
    @discardableResult
    public func save(_ saved: Data) -> String {
        let old = raw()
        let kept = [saved] + old.prefix(Self.limit - 1)
        store.set(Self.key, kept.map { $0.base64EncodedString() }.joined(separator: ","))
        let dropped = old.dropFirst(Self.limit - 1).map { (try? savedGameSummary(bytes: $0)) ?? "a damaged record" }
        return dropped.isEmpty ? "Saved (Saved matches)"
            : "Saved (Saved matches); \(Self.limit) are kept, so the oldest went: \(dropped.joined(separator: "; "))"
    }

    /// The saved matches, newest first; a damaged one is left out.
    public func list() -> [Entry] {
        // Rust writes the label (its ending, its plies in the singular or plural).
        raw().compactMap { bytes in
            (try? savedGameSummary(bytes: bytes)).map { Entry(label: $0, saved: bytes) }
        }
    }

    private func raw() -> [Data] {
        (store.string(Self.key) ?? "").split(separator: ",").compactMap { Data(base64Encoded: String($0)) }
    }

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
