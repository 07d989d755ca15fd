// Where Rust's ready-to-draw BoardView goes on the screen: one square cell per column and
// row, centred in the space given. Xiangqi pieces stand on the intersections of lines drawn
// through the cell centres (9×10 with the river and palaces); chess pieces stand in
// checkered squares (8×8). A touch is turned into the (column, row) Rust's `tap` takes.
import Foundation

public struct BoardLayout: Equatable {
    public let kind: GameKind
    public let columns: Int
    public let rows: Int
    /// The side of a cell.
    public let cell: Double
    /// The top left corner of the board.
    public let left: Double
    public let top: Double

    public init(board: BoardView, width: Double, height: Double) {
        kind = board.kind
        columns = max(Int(board.width), 1)
        rows = max(Int(board.height), 1)
        cell = max(min(width / Double(columns), height / Double(rows)), 0)
        left = (width - cell * Double(columns)) / 2
        top = (height - cell * Double(rows)) / 2
    }

    /// Pieces on line intersections (xiangqi) rather than in squares (chess).
    public var onIntersections: Bool { kind != .chess }

    /// The centre of a cell: where its piece is drawn.
    public func center(column: Int, row: Int) -> (x: Double, y: Double) {
        (left + (Double(column) + 0.5) * cell, top + (Double(row) + 0.5) * cell)
    }

    /// The cell under a touch, nil off the board.
    public func cellAt(x: Double, y: Double) -> (column: Int, row: Int)? {
        guard cell > 0 else { return nil }
        let c = ((x - left) / cell).rounded(.down), r = ((y - top) / cell).rounded(.down)
        guard c >= 0, r >= 0, c < Double(columns), r < Double(rows) else { return nil }
        return (Int(c), Int(r))
    }

    /// Xiangqi's lines between cell centres: every row; the edge columns whole; the inner
    /// columns broken by the river (between rows 4 and 5); the palaces' diagonals.
    public var lines: [(from: (x: Double, y: Double), to: (x: Double, y: Double))] {
        guard onIntersections else { return [] }
        var out: [(from: (x: Double, y: Double), to: (x: Double, y: Double))] = []
        let last = (c: columns - 1, r: rows - 1)
        for r in 0...last.r { out.append((center(column: 0, row: r), center(column: last.c, row: r))) }
        let river = rows / 2
        for c in 0...last.c {
            if c == 0 || c == last.c || rows < 2 {
                out.append((center(column: c, row: 0), center(column: c, row: last.r)))
            } else {
                out.append((center(column: c, row: 0), center(column: c, row: river - 1)))
                out.append((center(column: c, row: river), center(column: c, row: last.r)))
            }
        }
        if columns == 9 && rows == 10 {
            for (a, b) in [(0, 2), (7, 9)] {
                out.append((center(column: 3, row: a), center(column: 5, row: b)))
                out.append((center(column: 5, row: a), center(column: 3, row: b)))
            }
        }
        return out
    }
}
