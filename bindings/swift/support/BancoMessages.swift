// Readable messages for the errors Banco throws, shipped with the generated Banco.swift
// (bindings/scripts/generate.sh copies this file next to it; it is written by hand, not
// generated). uniffi's generated `errorDescription` (and so `localizedDescription`) is a
// reflection dump such as `BancoError.IllegalMove(message: "…")`; `message` is the text
// Banco wrote for the player, the one Kotlin's `e.message` gives.
//
//     do { _ = try game.playText(text: "zz9", notation: nil) }
//     catch let e as BancoError { label.text = e.message }
//     catch { label.text = bancoMessage(error) }

public extension BancoError {
    /// The text Banco wrote for the player ("`zz9` is not a move: …").
    var message: String {
        switch self {
        case .BadMoveText(let m), .IllegalMove(let m), .GameOver(let m), .InvalidPosition(let m),
             .BadSquare(let m), .BadSave(let m), .NewerSave(let m), .WrongGame(let m), .Unsupported(let m), .InvalidArgument(let m),
             .NotAvailable(let m), .Network(let m), .Match(let m), .Internal(let m):
            return m
        }
    }
}

public extension LinesError {
    /// The text Banco wrote for the player ("no path from a1 to e5").
    var message: String {
        switch self {
        case .OffBoard(let m), .EmptySource(let m), .Occupied(let m), .NoPath(let m), .GameOver(let m),
             .TimeUp(let m), .UndoDisabled(let m), .NothingToUndo(let m), .Unreadable(let m),
             .BadSettings(let m), .BadSave(let m), .NewerSave(let m), .WrongGame(let m), .Internal(let m):
            return m
        }
    }
}

public extension PgnImportError {
    /// The text Banco wrote for the player (the file's line and what is wrong there).
    var message: String { pgnImportErrorText(error: self) }
}

/// The readable message of anything a Banco call throws (`String(describing:)` for any
/// other error).
public func bancoMessage(_ error: Error) -> String {
    switch error {
    case let e as BancoError: return e.message
    case let e as LinesError: return e.message
    case let e as PgnImportError: return e.message
    default: return String(describing: error)
    }
}
