// A tiny test harness (no XCTest on a bare Linux toolchain). The last line printed is
// `N passed, M failed`; the exit code is 1 if any test failed.
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

/// Runs `body`, which must throw a BancoError; returns it.
@discardableResult
func throwsBanco(_ body: () throws -> Void, line: Int = #line) throws -> BancoError {
    do {
        try body()
    } catch let e as BancoError {
        return e
    } catch {
        throw TestFailure(description: "line \(line): expected a BancoError, got \(error)")
    }
    throw TestFailure(description: "line \(line): expected a BancoError, nothing was thrown")
}

/// The readable message of a (flat) BancoError.
func message(_ e: BancoError) -> String {
    switch e {
    case .BadMoveText(let m), .IllegalMove(let m), .GameOver(let m), .InvalidPosition(let m),
         .BadSquare(let m), .BadSave(let m), .Unsupported(let m), .InvalidArgument(let m),
         .NotAvailable(let m), .Network(let m), .Match(let m), .Internal(let m):
        return m
    }
}

func isInternal(_ e: BancoError) -> Bool {
    if case .Internal = e { return true }
    return false
}

/// Waits until `condition` holds (polling), up to `seconds`.
func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}
