// Where Rust's ready-to-draw BoardView goes on the screen: one square cell per column and
// row, centred in the space given. Xiangqi pieces stand on the intersections of the lines
// Rust lists (`BoardView.lines`: the river and palaces are Rust's); chess pieces stand in
// checkered squares. A touch is turned into the (column, row) Rust's `tap` takes.
import Foundation

public struct BoardLayout {
    public let kind: GameKind
    /// Pieces on line intersections (xiangqi) rather than in squares (chess).
    public let onIntersections: Bool
    private let boardLines: [BoardLine]
    public let columns: Int
    public let rows: Int
    /// The side of a cell.
    public let cell: Double
    /// The top left corner of the board.
    public let left: Double
    public let top: Double
    /// Xiangqi and jieqi: the height of the river's middle, halfway between the centres of
    /// the rows on either side of it (Rust's `riverAfterRow`; write 楚河 漢界 there); nil for chess.
    public let riverY: Double?

    public init(board: BoardView, width: Double, height: Double) {
        kind = board.kind
        onIntersections = board.onLines
        boardLines = board.lines
        columns = max(Int(board.width), 1)
        rows = max(Int(board.height), 1)
        cell = max(min(width / Double(columns), height / Double(rows)), 0)
        left = (width - cell * Double(columns)) / 2
        top = (height - cell * Double(rows)) / 2
        let (t, c) = (top, cell)
        riverY = board.riverAfterRow.map { t + Double(Int($0) + 1) * c }
    }

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

    /// The board's lines (Rust's) as screen points between cell centres.
    public var lines: [(from: (x: Double, y: Double), to: (x: Double, y: Double))] {
        boardLines.map {
            (center(column: Int($0.fromColumn), row: Int($0.fromRow)),
             center(column: Int($0.toColumn), row: Int($0.toRow)))
        }
    }
}
