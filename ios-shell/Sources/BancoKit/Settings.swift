// Player settings, kept in the key-value store: the game, the computer's level, the colour,
// the rules preset, sound, name, and a new solo Lines game's start balls, undo rule, time limit
// and Lines 98's preview, and how hard the Lines hint thinks. Stored values out
// of range fall back to defaults; a level given by hand is passed to Rust as it is (Rust
// refuses one outside its range). Rust gives the defaults (`defaultSettings()`: the game, level,
// colour, rules preset, name and race a player has before choosing any), the level range and the
// rules presets: a preset's
// name, stored once, gives the rules of whichever game is started (xiangqi and jieqi alike;
// chess keeps its usual rules); and Lines' choices (start balls, undo rules by name, time
// limits, the hint's strengths) with their defaults.
import Foundation

/// The computer's levels (Rust's range: 1 to 10).
public var computerLevels: ClosedRange<Int> {
    let r = levelRange()
    return Int(r.min)...Int(r.max)
}

/// Every rules preset a settings screen offers (Rust's, each name once), the usual rules first.
public func offeredPresets() -> [RulesPreset] {
    var seen = Set<String>()
    return boardGames().flatMap { rulesPresets(kind: $0) }.filter { seen.insert($0.name).inserted }
}

public struct Settings: Equatable {
    /// The games offered on the home screen and when hosting: Rust's board games.
    public static var games: [GameKind] { boardGames() }

    /// The game played against the computer or proposed when hosting.
    public var game: GameKind
    /// The computer's level, 1 (beginner) to 10 (full strength).
    public var level: Int
    /// The colour the player takes against the computer (and proposes when hosting).
    public var color: Color
    /// The rules preset's name (Rust's `rulesPresets`: "asian", "casual"); chess has one set of rules.
    public var rules: String
    public var sound: Bool
    public var playerName: String
    /// Lines 98's preview in a new Lines game and in a race hosted: the board shows where the next balls land.
    public var linesPreview: Bool
    /// A new solo Lines game: balls at the start (3 or 5, `linesStartBallChoices`).
    public var linesStartBalls: Int
    /// A new solo Lines game: how far undo goes (`linesUndoChoices`).
    public var linesUndo: LinesUndo
    /// A new solo Lines game: its time limit in seconds, 0 for an untimed game (`linesTimeLimitChoices`).
    public var linesTimeLimitS: Int
    /// How hard the Lines hint thinks, in playouts a move (`linesHintChoices`), every game's.
    public var linesHintPlayouts: Int
    /// A Lines race hosted: balls on each board at the start (3 or 5, `raceStartBallChoices`).
    public var raceStartBalls: Int
    /// A Lines race hosted: its time limit in minutes, 0 for none (`raceMinuteChoices`).
    public var raceMinutes: Int
    /// The clock of the board games hosted or proposed: a name of Rust's `clockPresets()`
    /// ("5+3"), "" untimed.
    public var clock: String

    /// The start balls a race may have (Rust's `linesStartBalls()`: 3 or 5).
    public static var raceStartBallChoices: [Int] { BancoKit.linesStartBalls().map { Int($0) } }
    /// The start balls a new Lines game may have (Rust's `linesStartBalls()`: 3 or 5).
    public static var linesStartBallChoices: [Int] { BancoKit.linesStartBalls().map { Int($0) } }
    /// The undo rules a new Lines game may have, with a name to store and a label to show (Rust's).
    public static var linesUndoChoices: [LinesUndoChoice] { BancoKit.linesUndoChoices() }
    /// The time limits a new Lines game may have, with their labels; 0 is untimed (Rust's).
    public static var linesTimeLimitChoices: [LinesTimeLimit] { linesTimeLimits() }
    /// The Lines hint's strengths (playouts a move, with their labels), the quickest first (Rust's).
    public static var linesHintChoices: [LinesHintChoice] { BancoKit.linesHintChoices() }
    /// The race time limits offered, in minutes (Rust's `raceTimeLimits()`): 2 to 60; every race has one.
    public static var raceMinuteChoices: [Int] { raceTimeLimits().map { Int($0.seconds / 60) } }
    /// How a race time limit of `minutes` reads, in Rust's words ("5 min", "60 min").
    public static func raceMinutesLabel(_ minutes: Int) -> String {
        raceTimeLimits().first { Int($0.seconds) == minutes * 60 }?.label ?? "\(minutes) min"
    }

    /// The settings before the player chooses any: Rust's, the same on both phones.
    public static let defaults: DefaultSettings = defaultSettings()

    public init(game: GameKind = Settings.defaults.game, level: Int = Int(Settings.defaults.level),
                color: Color = Settings.defaults.color, rules: String = Settings.defaults.rules,
                sound: Bool = true, playerName: String = Settings.defaults.playerName, linesPreview: Bool = false,
                linesStartBalls: Int = Int(linesDefaultOptions().startBalls),
                linesUndo: LinesUndo = linesDefaultOptions().undo,
                linesTimeLimitS: Int = Int(linesDefaultOptions().timeLimitS),
                linesHintPlayouts: Int = Int(linesDefaultOptions().hintPlayouts),
                raceStartBalls: Int = Int(Settings.defaults.raceStartBalls),
                raceMinutes: Int = Int(Settings.defaults.raceMinutes), clock: String = "") {
        self.game = game
        self.level = level
        self.color = color
        self.rules = rules
        self.sound = sound
        self.playerName = playerName
        self.linesPreview = linesPreview
        self.linesStartBalls = linesStartBalls
        self.linesUndo = linesUndo
        self.linesTimeLimitS = linesTimeLimitS
        self.linesHintPlayouts = linesHintPlayouts
        self.raceStartBalls = raceStartBalls
        self.raceMinutes = raceMinutes
        self.clock = clock
    }

    /// The race a host proposes: these start balls, time limit and preview (Rust refuses a
    /// start other than 3 or 5).
    public var raceSettings: RaceSettings {
        RaceSettings(startBalls: UInt8(clamping: raceStartBalls),
                     timeLimitS: UInt16(clamping: max(0, min(raceMinutes, 1000)) * 60), preview: linesPreview)
    }

    /// The rules of a new solo Lines game: these start balls, undo and preview (its time limit
    /// is `linesTimeLimitS`).
    public var linesSettings: LinesSettings {
        LinesSettings(startBalls: UInt8(clamping: linesStartBalls), undo: linesUndo, preview: linesPreview)
    }

    /// These settings for `game` (the home screen's "Xiangqi" and "Chess" buttons).
    public func with(game: GameKind) -> Settings {
        var s = self
        s.game = game
        return s
    }

    /// The rules of the game played: Rust's rules of the preset in that game, nil (the usual
    /// ones) without one.
    public var gameRules: Rules? { rulesFor(game) }

    /// The rules to ask for in `kind`: Rust's rules of the preset in that game, nil without one.
    public func rulesFor(_ kind: GameKind) -> Rules? { rulesPreset(kind: kind, name: rules) }

    /// A game against the computer with these settings; `chanceSeed` makes jieqi's reveals
    /// repeat (tests), nil draws them from the system's randomness.
    public func vs(fen: String? = nil, movetimeMs: UInt64 = 1000, chanceSeed: UInt64? = nil) -> VsSettings {
        VsSettings(kind: game, human: color, level: UInt8(clamping: level), rules: gameRules,
                   movetimeMs: movetimeMs, fen: fen, chanceSeed: chanceSeed)
    }

    /// The clock to offer (`clock`'s preset, Rust's), nil when untimed.
    public var matchClock: MatchClock? { clockPreset(name: clock) }

    /// The board game proposed when hosting or from the match screen: the game, the colour,
    /// its rules and the clock.
    public var offer: MatchOffer {
        MatchOffer(game: game, yourColor: color, rules: gameRules, startFen: nil, clock: matchClock)
    }

    public func save(_ store: KeyValueStore) {
        store.set("settings.game", gameName(game).lowercased())
        store.set("settings.level", String(level))
        store.set("settings.color", color == .red ? "RED" : "BLACK")
        store.set("settings.rules", rules)
        store.set("settings.sound", sound ? "true" : "false")
        store.set("settings.name", playerName)
        store.set("settings.linesPreview", linesPreview ? "true" : "false")
        store.set("settings.linesStartBalls", String(linesStartBalls))
        store.set("settings.linesUndo", Settings.linesUndoChoices.first { $0.undo == linesUndo }?.name)
        store.set("settings.linesTimeLimitS", String(linesTimeLimitS))
        store.set("settings.linesHintPlayouts", String(linesHintPlayouts))
        store.set("settings.raceStartBalls", String(raceStartBalls))
        store.set("settings.raceMinutes", String(raceMinutes))
        store.set("settings.clock", clock)
    }

    /// Settings from `store`; anything missing, damaged or out of range falls back to its default.
    public static func load(_ store: KeyValueStore) -> Settings {
        let d = Settings()
        let game = Settings.games.first { gameName($0).lowercased() == store.string("settings.game") } ?? d.game
        let level = store.string("settings.level").flatMap { Int($0) }.flatMap { computerLevels.contains($0) ? $0 : nil }
        let colors: [String: Color] = ["RED": .red, "BLACK": .black]
        let flags = ["true": true, "false": false]
        return Settings(game: game, level: level ?? d.level,
                        color: store.string("settings.color").flatMap { colors[$0] } ?? d.color,
                        rules: store.string("settings.rules").flatMap { v in
                            offeredPresets().first { $0.name.lowercased() == v.lowercased() }?.name } ?? d.rules,
                        sound: store.string("settings.sound").flatMap { flags[$0] } ?? d.sound,
                        playerName: store.string("settings.name").flatMap { playerDisplayName(raw: $0) } ?? d.playerName,
                        linesPreview: store.string("settings.linesPreview").flatMap { flags[$0] } ?? d.linesPreview,
                        linesStartBalls: store.string("settings.linesStartBalls").flatMap { Int($0) }
                            .flatMap { linesStartBallChoices.contains($0) ? $0 : nil } ?? d.linesStartBalls,
                        linesUndo: store.string("settings.linesUndo").flatMap { linesUndoNamed(name: $0) } ?? d.linesUndo,
                        linesTimeLimitS: store.string("settings.linesTimeLimitS").flatMap { Int($0) }
                            .flatMap { s in linesTimeLimitChoices.contains { Int($0.seconds) == s } ? s : nil } ?? d.linesTimeLimitS,
                        // Rust's rule: one not offered is the default.
                        linesHintPlayouts: store.string("settings.linesHintPlayouts").flatMap { UInt32($0) }
                            .map { Int(linesHintPlayoutsOrDefault(playouts: $0)) } ?? d.linesHintPlayouts,
                        raceStartBalls: store.string("settings.raceStartBalls").flatMap { Int($0) }
                            .flatMap { raceStartBallChoices.contains($0) ? $0 : nil } ?? d.raceStartBalls,
                        raceMinutes: store.string("settings.raceMinutes").flatMap { Int($0) }
                            .flatMap { raceMinuteChoices.contains($0) ? $0 : nil } ?? d.raceMinutes,
                        clock: store.string("settings.clock").flatMap { clockPreset(name: $0) != nil ? $0 : nil } ?? d.clock)
    }
}
