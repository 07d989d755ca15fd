// The board as the view draws it: pieces, selection and legal targets, last move, hint, the
// king in check, and whether Black is at the bottom.
import Foundation

public func sq(_ file: Int, _ rank: Int) -> Square { Square(file: UInt8(file), rank: UInt8(rank)) }

/// The square named `name` (`h2`).
public func square(_ name: String) -> Square {
    let c = Array(name.unicodeScalars)
    precondition(c.count == 2, "bad square \(name)")
    return sq(Int(c[0].value) - 97, Int(c[1].value) - 48)
}

public func mv(_ from: String, _ to: String) -> Move { Move(from: square(from), to: square(to)) }

public enum TapResult: Equatable {
    case ignored
    case selected(Square)
    case cleared
    case chosen(Move)
}

public struct BoardModel: Equatable {
    public var pieces: [Square: Piece] = [:]
    public var selected: Square?
    public var targets: Set<Square> = []
    public var lastMove: Move?
    public var hint: Move?
    public var checkedKing: Square?
    /// True when Black is at the bottom of the screen.
    public var flipped = false

    public init() {}

    /// Screen cell of a square: column 0-8 from the left, row 0-9 from the top.
    public func cell(of s: Square) -> (column: Int, row: Int) {
        let f = Int(s.file), r = Int(s.rank)
        return flipped ? (8 - f, r) : (f, 9 - r)
    }

    /// The square in a screen cell, nil outside the board.
    public func square(column: Int, row: Int) -> Square? {
        guard (0...8).contains(column), (0...9).contains(row) else { return nil }
        return flipped ? sq(8 - column, row) : sq(column, 9 - row)
    }

    /// A tap on `s` by the player of `mover` (nil: not their turn).
    public func tap(_ s: Square, mover: Color?, legalFrom: (Square) -> [Move]) -> (BoardModel, TapResult) {
        guard let mover = mover else {
            return selected != nil ? (cleared(), .cleared) : (self, .ignored)
        }
        if let from = selected, targets.contains(s) {
            return (cleared(), .chosen(Move(from: from, to: s)))
        }
        if let p = pieces[s], p.color == mover, s != selected {
            var b = self
            b.selected = s
            b.targets = Set(legalFrom(s).filter { $0.from == s }.map { $0.to })
            return (b, .selected(s))
        }
        return selected != nil ? (cleared(), .cleared) : (self, .ignored)
    }

    public func cleared() -> BoardModel {
        var b = self
        b.selected = nil
        b.targets = []
        return b
    }

    /// The board of `game`.
    public static func of(_ game: Game, flipped: Bool, lastMove: Move? = nil) throws -> BoardModel {
        var b = BoardModel()
        for p in try game.pieces() { b.pieces[p.square] = p.piece }
        let st = try game.status()
        if st.inCheck {
            b.checkedKing = b.pieces.first { $0.value.kind == .king && $0.value.color == st.sideToMove }?.key
        }
        b.flipped = flipped
        b.lastMove = lastMove
        return b
    }
}
