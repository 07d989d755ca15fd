// What to draw for a piece and for jieqi's pools, decided here (tested on Linux) so that the
// app's canvas only paints: a piece's front (its glyph), the back of a face-down jieqi piece
// (a plain disc of its side's colour with a pattern and no glyph: nobody knows what it is),
// and each side's pool of hidden pieces by kind and count, placed above or below the board
// next to that side's pieces (which pool goes where, and which kinds it lists, is Rust's
// BoardView.poolSides).
import Foundation

/// How a piece looks on the board.
public enum PieceFace: Equatable {
    /// The front: `glyph` on a disc (`onDisc`: xiangqi and jieqi pieces stand on the lines)
    /// or the bare symbol (chess).
    case front(color: Color, glyph: String, onDisc: Bool)
    /// The back of a face-down jieqi piece: a disc in its side's colour, a pattern, no glyph.
    case back(color: Color)

    /// The side.
    public var color: Color {
        switch self {
        case .front(let c, _, _), .back(let c): return c
        }
    }

    /// True for the back of a face-down piece.
    public var isBack: Bool {
        if case .back = self { return true }
        return false
    }

    /// How `piece` is drawn on a board whose pieces stand on the lines (`onLines`) or in squares.
    public init(_ piece: Piece, onLines: Bool) {
        self = piece.faceDown ? .back(color: piece.color) : .front(color: piece.color, glyph: piece.glyph, onDisc: onLines)
    }
}

extension BoardView {
    /// How the piece on `cell` is drawn; nil for an empty cell.
    public func face(_ cell: Cell) -> PieceFace? { cell.piece.map { PieceFace($0, onLines: onLines) } }

    /// The pools to show beside the board (jieqi), placed by Rust (`poolSides`); nil without pools.
    public var poolShelves: PoolShelves? {
        poolSides.map { PoolShelves(top: PoolShelf($0.top), bottom: PoolShelf($0.bottom)) }
    }
}

/// One kind still hidden in a pool: its front and how many.
public struct PoolItem: Equatable {
    public let face: PieceFace
    /// The kind's English name ("rook").
    public let name: String
    public let count: Int
    /// Short text: the glyph and the count ("車×2").
    public var text: String {
        if case .front(_, let glyph, _) = face { return "\(glyph)×\(count)" }
        return "×\(count)"
    }
}

/// One side's pool as shown beside the board.
public struct PoolShelf: Equatable {
    public let color: Color
    /// The kinds still hidden, with counts (Rust leaves out the kinds all revealed).
    public let items: [PoolItem]
    /// Unrevealed pieces in all (face-down pieces captured unseen stay in the pool).
    public let total: Int
    /// The side's face-down pieces still on the board.
    public let faceDown: Int
    /// The heading: "Red: 15 hidden" (Rust's `Pool.title`).
    public let title: String

    init(_ pool: Pool) {
        color = pool.color
        items = pool.entries.map {
            PoolItem(face: PieceFace($0.piece, onLines: true), name: $0.piece.name, count: Int($0.count))
        }
        total = Int(pool.total)
        faceDown = Int(pool.faceDown)
        title = pool.title
    }

    /// The whole shelf in one line: "Red: 15 hidden  俥×2 傌×2 …".
    public var text: String { ([title] + items.map { $0.text }).joined(separator: "  ") }
}

/// Both pools placed on screen: `top` next to the side at the top of the board.
public struct PoolShelves: Equatable {
    public let top: PoolShelf
    public let bottom: PoolShelf
}
