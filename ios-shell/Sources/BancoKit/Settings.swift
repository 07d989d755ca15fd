// Player settings: AI level, colour against the AI, rules preset, sound, name.
import Foundation

public enum RulesPreset: String, CaseIterable {
    /// Perpetual check and perpetual chase lose (tournament play).
    case asian
    /// Only perpetual check loses; any other repetition draws.
    case casual

    public var label: String {
        self == .asian ? "Asian (perpetual check and chase lose)" : "Casual (only perpetual check loses)"
    }

    public var repetition: RepetitionRule { self == .asian ? .asian : .casual }

    public func rules() -> Rules {
        let d = defaultRules()
        return Rules(repetition: repetition, repetitions: d.repetitions, noCapturePlies: d.noCapturePlies)
    }
}

public struct Settings: Equatable {
    /// AI level, 1 (beginner) to 10 (full strength).
    public var level: Int
    /// The colour the player takes against the AI (and proposes when hosting).
    public var color: Color
    public var rules: RulesPreset
    public var sound: Bool
    public var playerName: String

    public init(level: Int = 3, color: Color = .red, rules: RulesPreset = .asian, sound: Bool = true,
                playerName: String = "Player") {
        self.level = min(max(level, 1), 10)
        self.color = color
        self.rules = rules
        self.sound = sound
        self.playerName = playerName
    }

    public func save(_ store: KeyValueStore) {
        store.set("settings.level", String(level))
        store.set("settings.color", color == .red ? "RED" : "BLACK")
        store.set("settings.rules", rules.rawValue)
        store.set("settings.sound", sound ? "true" : "false")
        store.set("settings.name", playerName)
    }

    /// Settings from `store`; anything missing or damaged falls back to its default.
    public static func load(_ store: KeyValueStore) -> Settings {
        let d = Settings()
        let level = store.string("settings.level").flatMap { Int($0) }.map { min(max($0, 1), 10) } ?? d.level
        let color: Color
        switch store.string("settings.color") {
        case "RED": color = .red
        case "BLACK": color = .black
        default: color = d.color
        }
        let rules = store.string("settings.rules").flatMap { RulesPreset(rawValue: $0) } ?? d.rules
        let sound: Bool
        switch store.string("settings.sound") {
        case "true": sound = true
        case "false": sound = false
        default: sound = d.sound
        }
        let name = store.string("settings.name")?.trimmingCharacters(in: .whitespaces)
        return Settings(level: level, color: color, rules: rules, sound: sound,
                        playerName: (name?.isEmpty ?? true) ? d.playerName : String(name!.prefix(32)))
    }
}

public struct Puzzle: Equatable {
    public let name: String
    public let fen: String
    public let mateIn: Int
}

/// Built-in mate puzzles (the same as Android's).
public enum Puzzles {
    public static let all: [Puzzle] = [
        Puzzle(name: "Rook to the side", fen: "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", mateIn: 1),
        Puzzle(name: "Cannons and rook", fen: "1nb1ka3/4a4/4c4/2p1C4/9/3Rcr3/P8/n3C4/4Apr2/4KA3 w - - 0 1", mateIn: 5),
        Puzzle(name: "Two horses and a rook", fen: "9/9/3a1k3/9/1N5N1/4R4/1n5r1/9/3K1p3/9 w - - 0 1", mateIn: 5),
        Puzzle(name: "Horse and pawn", fen: "9/9/4Nk3/3c2p2/3r2P2/3p2B2/3p2r2/4KC3/9/9 w - - 0 1", mateIn: 5),
    ]
}
