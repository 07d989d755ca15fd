// Sharing a game and a position, and opening a shared game. Rust writes and reads the record
// (PGN for chess, the xqbase dialect for xiangqi; the first bad move named by number) and draws
// the pictures (SVG, and PNG with built-in glyphs) and writes the record's tags (the players on
// their sides, PGN's date: `pgnVsComputerTags`); this file only passes it the names and the local
// date (ISO) and hands text and bytes to the share sheet; the slow parts (a PNG, a record read
// and parsed) run off the UI thread through a `Worker`.
import Foundation

/// A picture of a position: the SVG Rust drew and its PNG, with a file name to share it by.
public struct Picture: Equatable {
    public let svg: String
    public let png: Data
    public let fileName: String

    /// The PNG of `svg` at `scale` (2: sharp on a phone); `name` without extension.
    public init(svg: String, scale: Float, name: String) throws {
        self.svg = svg
        png = try renderPng(svg: svg, scale: scale)
        fileName = "\(name).png"
    }
}

public enum GameShare {
    /// A game opened from a shared record, ready for `VsModel.openSaved`.
    public struct Opened: Equatable {
        public let kind: GameKind
        /// The game in the one save format (every move, the start position).
        public let saved: Data
        /// The moves it holds.
        public let plies: Int
        /// Whose move it is: the player takes this side to go on.
        public let sideToMove: Color
    }

    /// Why a shared record cannot be opened.
    public struct OpenError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The PGN of the game on screen (`VsModel.saved()`): the player and the computer named on
    /// their sides, the day of `date` where the player is (`timeZone`), as Android's `LocalDate.now()`.
    public static func pgn(_ saved: Data, _ vs: VsState, playerName: String, date: Date,
                           timeZone: TimeZone = .current) throws -> String {
        try Game.load(bytes: saved).toPgn(tags: tags(vs, playerName: playerName, date: date, timeZone: timeZone))
    }

    /// The tags of a game against the computer: Rust names the player and the computer on their
    /// sides, adds who played the computer and at which level (so that the record opens again
    /// with both) and writes PGN's date.
    public static func tags(_ vs: VsState, playerName: String, date: Date, timeZone: TimeZone = .current) -> [PgnTag] {
        pgnVsComputerTags(kind: vs.kind, date: day(date, timeZone: timeZone), human: vs.human,
                          playerName: playerName, level: vs.level)
    }

    /// The file name to share a record by, Rust's ("banco-xiangqi-2026-12-02.pgn"), the local day.
    public static func fileName(_ kind: GameKind, date: Date, timeZone: TimeZone = .current) -> String {
        pgnFileName(kind: kind, date: day(date, timeZone: timeZone))
    }

    /// Opens a shared record: the game, or why it cannot be opened (the first bad move by its
    /// number, a position that is not legal, not PGN at all).
    public static func open(_ text: String) -> Result<Opened, OpenError> {
        do {
            let g = try Game.fromPgn(text: text)
            let status = try g.status()
            return .success(Opened(kind: try g.kind(), saved: try g.save(), plies: Int(status.ply),
                                   sideToMove: status.sideToMove))
        } catch let e as PgnImportError {
            return .failure(OpenError(description: "This game cannot be opened: \(pgnImportErrorText(error: e))"))
        } catch {
            return .failure(OpenError(description: "This game cannot be opened: \(readable(error))"))
        }
    }

    /// The picture of the position on screen, its last move marked, turned as on screen.
    public static func picture(_ vs: VsState, scale: Float = 2) throws -> Picture {
        try Picture(svg: try renderFenSvg(kind: vs.kind, fen: vs.fen, lastMove: vs.lastMove?.coordinate,
                                          flipped: vs.board.flipped),
                    scale: scale, name: "banco-\(gameName(vs.kind).lowercased())")
    }

    /// `picture` drawn off the UI thread by `worker` (a PNG takes a while on a phone); `done`
    /// on the UI thread.
    public static func picture(_ vs: VsState, scale: Float = 2, worker: Worker,
                               done: @escaping (Result<Picture, Error>) -> Void) {
        worker.run({ try picture(vs, scale: scale) }, done: done)
    }

    /// A shared record read by `read` (a file, perhaps) and opened (`open`) off the UI thread by
    /// `worker`; `done` on the UI thread with the game or why it cannot be opened.
    public static func open(read: @escaping () throws -> String, worker: Worker,
                            done: @escaping (Result<Opened, OpenError>) -> Void) {
        worker.run({ () -> Result<Opened, OpenError> in
            guard let text = try? read() else { return .failure(OpenError(description: "The file could not be read as text.")) }
            return open(text)
        }, done: { result in
            switch result {
            case .success(let opened): done(opened)
            case .failure(let e): done(.failure(OpenError(description: readable(e))))
            }
        })
    }

    /// The ISO day (`2026-12-02`) of `date` in `timeZone`: the day the player sees where they are.
    static func day(_ date: Date, timeZone: TimeZone) -> String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        let c = cal.dateComponents([.year, .month, .day], from: date)
        func pad(_ n: Int?, _ width: Int) -> String {
            let digits = String(n ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return [pad(c.year, 4), pad(c.month, 2), pad(c.day, 2)].joined(separator: "-")
    }
}
