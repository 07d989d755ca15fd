// A tiny test harness (no XCTest on a bare Linux toolchain), like the binding tests'. The last
// line printed is `N passed, M failed`. `TestUI` plays the main queue: one serial queue that
// runs posted blocks in order; tests call the models through it and wait on their state
// (every wait is bounded).
import Foundation
import BancoKit

struct TestFailure: Error, CustomStringConvertible {
    let description: String
}

final class Suite {
    private var tests: [(String, () throws -> Void)] = []

    func test(_ name: String, _ body: @escaping () throws -> Void) { tests.append((name, body)) }

    func run() -> Int {
        var passed = 0, failed = 0
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

final class TestUI: UIDispatcher {
    let queue = DispatchQueue(label: "ui")
    func post(_ block: @escaping () -> Void) { queue.async(execute: block) }

    func call<T>(_ body: () throws -> T) rethrows -> T { try queue.sync(execute: body) }

    /// Waits (up to `seconds`) until `pred` holds for `read()`, read on the UI queue.
    func wait<T>(_ what: String, seconds: Double = 30, _ read: () -> T, until pred: (T) -> Bool) throws -> T {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let v = call(read)
            if pred(v) { return v }
            if Date() > deadline { throw TestFailure(description: "timed out waiting for \(what); last state: \(v)") }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String = "check failed", line: Int = #line) throws {
    if !condition { throw TestFailure(description: "line \(line): \(message())") }
}

func eq<T: Equatable>(_ expected: T, _ actual: T, _ what: String = "value", line: Int = #line) throws {
    if expected != actual {
        throw TestFailure(description: "line \(line): \(what): expected <\(expected)>, got <\(actual)>")
    }
}

final class SoundLog: SoundPlayer {
    private let lock = NSLock()
    private var sounds: [Sound] = []
    func play(_ sound: Sound) { lock.lock(); sounds.append(sound); lock.unlock() }
    var all: [Sound] { lock.lock(); defer { lock.unlock() }; return sounds }
}

/// The cell of a board that shows the square named `name`.
func cell(_ board: BoardView?, _ name: String) throws -> Cell {
    guard let c = board?.cells.first(where: { $0.name == name }) else {
        throw TestFailure(description: "no cell \(name) on \(String(describing: board?.kind))")
    }
    return c
}

/// The first legal move of a position (to play on when only going on matters).
func firstLegal(_ kind: GameKind, _ fen: String) throws -> (from: String, to: String) {
    let m = try Game.fromFen(kind: kind, fen: fen).legalMoves()[0]
    return (try squareName(kind: kind, index: m.from), try squareName(kind: kind, index: m.to))
}
