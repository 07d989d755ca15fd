// The platform services the models use, and the plumbing they share; no UIKit/SwiftUI (builds
// on Linux). Every rule of play is in Rust (module Banco): this file has none.
//
// Every model is confined to its dispatcher's thread ("the UI thread"; the main queue in the
// app): its methods are called there, its state changes there. Banco's listeners are called on
// Rust-owned threads; the models hop with `UIDispatcher.post` before touching anything.
import Foundation
#if canImport(Combine)
import Combine
#endif

/// Runs blocks on the UI thread, in order.
public protocol UIDispatcher: AnyObject {
    func post(_ block: @escaping () -> Void)
    /// Runs `block` on the UI thread after `ms` milliseconds. By default a global queue
    /// waits, then `post`s.
    func post(afterMs ms: UInt64, _ block: @escaping () -> Void)
}

extension UIDispatcher {
    public func post(afterMs ms: UInt64, _ block: @escaping () -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(clamping: ms))) { [self] in
            self.post(block)
        }
    }
}

/// The main queue (the app).
public final class MainQueueDispatcher: UIDispatcher {
    public init() {}
    public func post(_ block: @escaping () -> Void) { DispatchQueue.main.async(execute: block) }
    public func post(afterMs ms: UInt64, _ block: @escaping () -> Void) {
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(Int(clamping: ms)), execute: block)
    }
}

/// Slow work off the UI thread (a PNG drawn, a shared record read and parsed): `run` does
/// the work on `background` (a global queue unless a test says otherwise) and hands its
/// result, or what it threw, to the UI thread through `ui`.
public final class Worker {
    private let ui: UIDispatcher
    private let background: (@escaping () -> Void) -> Void

    public init(ui: UIDispatcher,
                background: @escaping (@escaping () -> Void) -> Void = { block in
                    DispatchQueue.global(qos: .userInitiated).async { block() }
                }) {
        self.ui = ui
        self.background = background
    }

    public func run<T>(_ work: @escaping () throws -> T, done: @escaping (Result<T, Error>) -> Void) {
        let ui = self.ui
        background {
            let result = Result { try work() }
            ui.post { done(result) }
        }
    }
}

/// The base of the models: `ObservableObject` where Combine exists (SwiftUI redraws on
/// `objectWillChange`), plus plain observers everywhere (tests, Linux).
open class Model {
    #if canImport(Combine)
    public let objectWillChange = ObservableObjectPublisher()
    #endif
    private var observers: [Int: () -> Void] = [:]
    private var nextObserver = 0

    public init() {}

    /// Calls `observer` after every change; returns an id for `unobserve`.
    @discardableResult
    public func observe(_ observer: @escaping () -> Void) -> Int {
        nextObserver += 1
        observers[nextObserver] = observer
        return nextObserver
    }

    public func unobserve(_ id: Int) { observers[id] = nil }

    func willChange() {
        #if canImport(Combine)
        objectWillChange.send()
        #endif
    }

    func didChange() {
        for o in observers.values { o() }
    }
}

#if canImport(Combine)
extension Model: ObservableObject {}
#endif

/// Key-value storage for settings and the game to continue (UserDefaults in the app).
public protocol KeyValueStore: AnyObject {
    func string(_ key: String) -> String?
    func set(_ key: String, _ value: String?)
}

/// `store` as Rust's `KeptStore`: a `KeptSlot` over it reads, sets aside and writes the
/// records kept between sessions (the games to continue, Lines' best scores) by Rust's one
/// policy; the models show its notices.
public final class KeptStoreOf: KeptStore, @unchecked Sendable {
    private let store: KeyValueStore
    public init(_ store: KeyValueStore) { self.store = store }
    public func get(key: String) -> String? { store.string(key) }
    public func put(key: String, value: String) { store.set(key, value) }
    public func remove(key: String) { store.set(key, nil) }
}

public final class MemoryStore: KeyValueStore {
    private var map: [String: String] = [:]
    private let lock = NSLock()
    public init() {}
    public func string(_ key: String) -> String? { lock.lock(); defer { lock.unlock() }; return map[key] }
    public func set(_ key: String, _ value: String?) { lock.lock(); map[key] = value; lock.unlock() }
}

public final class UserDefaultsStore: KeyValueStore {
    private let defaults: UserDefaults
    public init(_ defaults: UserDefaults = .standard) { self.defaults = defaults }
    public func string(_ key: String) -> String? { defaults.string(forKey: key) }
    public func set(_ key: String, _ value: String?) { defaults.set(value, forKey: key) }
}

/// The sounds a model asks for; the app plays them.
public enum Sound: Equatable { case move, capture, check, gameOver }

public protocol SoundPlayer: AnyObject { func play(_ sound: Sound) }

public final class SilentSound: SoundPlayer {
    public init() {}
    public func play(_ sound: Sound) {}
}

/// The sound of a move, from what Rust says about it.
public func soundOf(_ played: PlayedMove) -> Sound {
    if played.givesCheck { return .check }
    if played.captured != nil { return .capture }
    return .move
}

/// The readable message of anything Banco throws (`bancoMessage`, shipped with the bindings).
public func readable(_ error: Error) -> String { bancoMessage(error) }

/// How a game is called on screen.
public func gameName(_ kind: GameKind) -> String {
    switch kind {
    case .xiangqi: return "Xiangqi"
    case .jieqi: return "Jieqi"
    case .chess: return "Chess"
    case .lines: return "Lines"
    }
}

/// How a piece kind is called in a picker ("Queen").
public func pieceName(_ kind: PieceKind) -> String { "\(kind)".capitalized }

/// Where secrets are kept: the Keychain in the app (BancoApp's `KeychainSecrets`, items
/// readable after the first unlock, on this device only: not in backups, not moved to a new
/// phone), memory in the tests. Unlike `KeyValueStore`, reading and writing can fail.
public protocol SecretStore: AnyObject {
    /// The item at `key`, nil if there is none.
    func data(_ key: String) throws -> Data?
    /// Keeps `data` at `key` (nil removes it).
    func set(_ key: String, _ data: Data?) throws
}

/// A `SecretStore` in memory (tests, previews).
public final class MemorySecrets: SecretStore {
    private var map: [String: Data] = [:]
    private let lock = NSLock()
    public init() {}
    public func data(_ key: String) throws -> Data? { lock.lock(); defer { lock.unlock() }; return map[key] }
    public func set(_ key: String, _ data: Data?) throws { lock.lock(); map[key] = data; lock.unlock() }
}

/// `secrets` as Rust's `TrustStore` (what it throws reaches Rust as `TrustStoreError`).
public final class TrustStoreOf: TrustStore, @unchecked Sendable {
    private let secrets: SecretStore
    public init(_ secrets: SecretStore) { self.secrets = secrets }
    public func get(key: String) throws -> Data? { try failed { try secrets.data(key) } }
    public func put(key: String, value: Data) throws { try failed { try secrets.set(key, value) } }
    public func remove(key: String) throws { try failed { try secrets.set(key, nil) } }

    private func failed<T>(_ call: () throws -> T) throws -> T {
        do { return try call() } catch { throw TrustStoreError.Failed(reason: readable(error)) }
    }
}

/// This device's identity and the players whose code was confirmed, kept in `secrets`
/// between matches by Rust's `TrustKeeper` (its policy: unreadable bytes set aside at
/// `match.trust.damaged` with a notice to show once, a fresh identity then, bytes of an
/// earlier version moved once out of `legacy`): pass its `load()` as a match's `trust` and
/// its `save` as its `onTrust`. A Keychain that cannot be read makes `load()` throw.
///
/// The bytes hold the device's secret key, so they live in the Keychain, not in the
/// backed-up defaults (`legacy`, where an earlier version kept them as Base64).
public func trustKeeper(secrets: SecretStore, legacy: KeyValueStore? = nil) -> TrustKeeper {
    TrustKeeper.inSecretStore(store: TrustStoreOf(secrets), legacy: legacy.map { KeptStoreOf($0) })
}
