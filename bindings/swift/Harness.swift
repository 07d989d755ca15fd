// A tiny test harness (no XCTest on a bare Linux toolchain). The last line printed is
// `N passed, M failed`; the exit code is 1 if any test failed. Also the helpers the tests
// share: typed error checks, a thread-safe inbox for listener calls, square names.
import Foundation

struct TestFailure: Error, CustomStringConvertible {
    let description: String
}

final class Suite {
    private var tests: [(String, () throws -> Void)] = []

    func test(_ name: String, _ body: @escaping () throws -> Void) {
        tests.append((name, body))
    }

    func run() -> Int {
        var passed = 0
        var failed = 0
        for (name, body) in tests {
            let start = Date()
            do {
                try body()
                passed += 1
                print("PASS \(name) (\(Int(Date().timeIntervalSince(start) * 1000)) ms)")
            } catch {
                failed += 1
                print("FAIL \(name): \(error)")
            }
        }
        print("\(passed) passed, \(failed) failed")
        return failed
    }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String = "check failed",
           line: Int = #line) throws {
    if !condition { throw TestFailure(description: "line \(line): \(message())") }
}

func eq<T: Equatable>(_ expected: T, _ actual: T, _ what: String = "value", line: Int = #line) throws {
    if expected != actual {
        throw TestFailure(description: "line \(line): \(what): expected <\(expected)>, got <\(actual)>")
    }
}

/// The variants of the (flat) BancoError, to say which ones a call may throw.
enum Err: String, CustomStringConvertible {
    case badMoveText, illegalMove, gameOver, invalidPosition, badSquare, badSave, newerSave, wrongGame, unsupported
    case invalidArgument, notAvailable, network, match, `internal`
    var description: String { rawValue }
}

/// The variant and the readable message of a BancoError.
func describe(_ e: BancoError) -> (Err, String) {
    switch e {
    case .BadMoveText(let m): return (.badMoveText, m)
    case .IllegalMove(let m): return (.illegalMove, m)
    case .GameOver(let m): return (.gameOver, m)
    case .InvalidPosition(let m): return (.invalidPosition, m)
    case .BadSquare(let m): return (.badSquare, m)
    case .BadSave(let m): return (.badSave, m)
    case .NewerSave(let m): return (.newerSave, m)
    case .WrongGame(let m): return (.wrongGame, m)
    case .Unsupported(let m): return (.unsupported, m)
    case .InvalidArgument(let m): return (.invalidArgument, m)
    case .NotAvailable(let m): return (.notAvailable, m)
    case .Network(let m): return (.network, m)
    case .Match(let m): return (.match, m)
    case .Internal(let m): return (.internal, m)
    }
}

func message(_ e: BancoError) -> String { describe(e).1 }

/// Runs `body`, which must throw a BancoError of one of the `expected` variants (with a
/// message); returns the message.
@discardableResult
func fails(_ expected: Err..., line: Int = #line, _ body: () throws -> Void) throws -> String {
    do {
        try body()
    } catch let e as BancoError {
        let (kind, text) = describe(e)
        try check(expected.contains(kind), "expected \(expected), got \(kind): \(text)", line: line)
        try check(!text.isEmpty, "an empty message for \(kind)", line: line)
        // The shipped helpers give the same text (BancoMessages.swift).
        try check(e.message == text && bancoMessage(e) == text, "message of \(kind)", line: line)
        return text
    } catch {
        throw TestFailure(description: "line \(line): expected a BancoError, got \(error)")
    }
    throw TestFailure(description: "line \(line): expected \(expected), nothing was thrown")
}

/// Runs `body`, which may succeed or throw a BancoError of one of the `allowed` variants
/// (never `Internal`: a caught Rust panic).
func mayFail(_ allowed: Err..., line: Int = #line, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let e as BancoError {
        let (kind, text) = describe(e)
        try check(allowed.contains(kind) && kind != .internal,
                  "allowed \(allowed), got \(kind): \(text)", line: line)
        try check(!text.isEmpty, "an empty message for \(kind)", line: line)
    }
}

/// A thread-safe queue of values delivered by listener callbacks on Rust threads.
final class Inbox<T>: @unchecked Sendable {
    private let cond = NSCondition()
    private var items: [T] = []
    private var seen: [T] = []

    var all: [T] { cond.lock(); defer { cond.unlock() }; return seen }

    func put(_ item: T) {
        cond.lock()
        items.append(item)
        seen.append(item)
        cond.signal()
        cond.unlock()
    }

    /// The next item matching `pick` (others are skipped), waiting up to `seconds`.
    func next<R>(_ what: String = "an item", _ seconds: Double = 30, _ pick: (T) -> R?) throws -> R {
        let deadline = Date().addingTimeInterval(seconds)
        cond.lock()
        defer { cond.unlock() }
        while true {
            while !items.isEmpty {
                let item = items.removeFirst()
                if let r = pick(item) { return r }
            }
            if !cond.wait(until: deadline) {
                throw TestFailure(description: "timed out waiting for \(what); last: \(seen.suffix(3))")
            }
        }
    }
}

/// A square index of a game by name (`h2`, `e4`).
func square(_ kind: GameKind, _ name: String) throws -> UInt8 { try parseSquare(kind: kind, name: name) }

/// A move of a game by square names.
func move(_ kind: GameKind, _ from: String, _ to: String, _ promotion: PieceKind? = nil) throws -> Move {
    Move(from: try square(kind, from), to: try square(kind, to), promotion: promotion)
}

/// The text of a played move in one notation ("" if the game has no such notation).
func text(_ p: PlayedMove, _ n: Notation) -> String {
    p.texts.first { $0.notation == n }?.text ?? ""
}

/// The cell of a board view that shows `square`.
func cell(_ b: BoardView, _ square: UInt8) throws -> Cell {
    guard let c = b.cells.first(where: { $0.square == square }) else {
        throw TestFailure(description: "no cell shows square \(square)")
    }
    return c
}
