// Player settings, kept in the key-value store: the game, the computer's level, the colour,
// the xiangqi rules preset, sound, name, and Lines 98's preview for a new Lines game. Stored
// values out of range fall back to defaults; a level given by hand is passed to Rust as it is
// (Rust refuses one outside 1–10).
import Foundation

public enum RulesPreset: String, CaseIterable {
    /// Perpetual check and perpetual chase lose (tournament play).
    case asian
    /// Only perpetual check loses; any other repetition draws.
    case casual

    public var label: String {
        self == .asian ? "Asian (perpetual check and chase lose)" : "Casual (only perpetual check loses)"
    }

    /// Xiangqi's usual rules with this preset's repetition rule.
    public var rules: Rules {
        guard case .xiangqi(_, let repetitions, let noCapture)? = defaultRules(kind: .xiangqi) else {
            // Not reached: xiangqi always has its usual rules.
            return .xiangqi(repetition: self == .asian ? .asian : .casual, repetitions: 3, noCapturePlies: 120)
        }
        return .xiangqi(repetition: self == .asian ? .asian : .casual, repetitions: repetitions,
                        noCapturePlies: noCapture)
    }
}

public struct Settings: Equatable {
    /// The games offered on the home screen and when hosting.
    public static let games: [GameKind] = [.xiangqi, .chess, .jieqi]

    /// The game played against the computer or proposed when hosting.
    public var game: GameKind
    /// The computer's level, 1 (beginner) to 10 (full strength).
    public var level: Int
    /// The colour the player takes against the computer (and proposes when hosting).
    public var color: Color
    /// Xiangqi's repetition rules.
    public var rules: RulesPreset
    public var sound: Bool
    public var playerName: String
    /// Lines 98's preview in a new Lines game: the board shows where the next balls land.
    public var linesPreview: Bool

    public init(game: GameKind = .xiangqi, level: Int = 3, color: Color = .red, rules: RulesPreset = .asian,
                sound: Bool = true, playerName: String = "Player", linesPreview: Bool = false) {
        self.game = game
        self.level = level
        self.color = color
        self.rules = rules
        self.sound = sound
        self.playerName = playerName
        self.linesPreview = linesPreview
    }

    /// These settings for `game` (the home screen's "Xiangqi" and "Chess" buttons).
    public func with(game: GameKind) -> Settings {
        var s = self
        s.game = game
        return s
    }

    /// The rules of the game played: the preset for xiangqi, the usual ones otherwise.
    public var gameRules: Rules? { game == .xiangqi ? rules.rules : nil }

    /// A game against the computer with these settings; `chanceSeed` makes jieqi's reveals
    /// repeat (tests), nil draws them from the system's randomness.
    public func vs(fen: String? = nil, movetimeMs: UInt64 = 1000, chanceSeed: UInt64? = nil) -> VsSettings {
        VsSettings(kind: game, human: color, level: UInt8(clamping: level), rules: gameRules,
                   movetimeMs: movetimeMs, fen: fen, chanceSeed: chanceSeed)
    }

    /// The game a host proposes.
    public var offer: MatchOffer { MatchOffer(game: game, yourColor: color, rules: gameRules, startFen: nil) }

    public func save(_ store: KeyValueStore) {
        store.set("settings.game", gameName(game).lowercased())
        store.set("settings.level", String(level))
        store.set("settings.color", color == .red ? "RED" : "BLACK")
        store.set("settings.rules", rules.rawValue)
        store.set("settings.sound", sound ? "true" : "false")
        store.set("settings.name", playerName)
        store.set("settings.linesPreview", linesPreview ? "true" : "false")
    }

    /// Settings from `store`; anything missing, damaged or out of range falls back to its default.
    public static func load(_ store: KeyValueStore) -> Settings {
        let d = Settings()
        let game = Settings.games.first { gameName($0).lowercased() == store.string("settings.game") } ?? d.game
        let level = store.string("settings.level").flatMap { Int($0) }.flatMap { (1...10).contains($0) ? $0 : nil }
        let colors: [String: Color] = ["RED": .red, "BLACK": .black]
        let flags = ["true": true, "false": false]
        let name = store.string("settings.name")?.trimmingCharacters(in: .whitespaces) ?? ""
        return Settings(game: game, level: level ?? d.level,
                        color: store.string("settings.color").flatMap { colors[$0] } ?? d.color,
                        rules: store.string("settings.rules").flatMap { RulesPreset(rawValue: $0) } ?? d.rules,
                        sound: store.string("settings.sound").flatMap { flags[$0] } ?? d.sound,
                        playerName: name.isEmpty ? d.playerName : String(name.prefix(32)),
                        linesPreview: store.string("settings.linesPreview").flatMap { flags[$0] } ?? d.linesPreview)
    }
}
