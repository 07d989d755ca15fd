// Player settings: the game, the computer's level, colour, rules preset, sound, name, and a
// new solo Lines game's start balls, undo rule, time limit and Lines 98's preview, and how
// hard the Lines hint thinks.
// Stored as strings in the platform's key-value store; a value that is missing, damaged or
// out of range falls back to its default (Rust refuses a bad level; the store never holds one).
// Rust gives the defaults (defaultSettings: the game, level, colour, rules preset, name and
// race a player has before choosing any), the level range and the rules presets: a preset's
// name, stored once, gives the rules of whichever game is started (xiangqi and jieqi alike;
// chess keeps its usual rules); and Lines' choices (start balls, undo rules by name, time
// limits, the hint's strengths) with their defaults.
package org.banco.shell

import org.banco.Color
import org.banco.GameKind
import org.banco.LinesHintChoice
import org.banco.LinesSettings
import org.banco.LinesTimeLimit
import org.banco.LinesUndo
import org.banco.LinesUndoChoice
import org.banco.MatchClock
import org.banco.MatchOffer
import org.banco.RaceSettings
import org.banco.Rules
import org.banco.RulesPreset
import org.banco.VsSettings
import org.banco.boardGames
import org.banco.clockPreset
import org.banco.clockPresets
import org.banco.defaultSettings
import org.banco.levelRange
import org.banco.playerDisplayName
import org.banco.raceTimeLimits
import org.banco.linesDefaultOptions
import org.banco.linesHintChoices
import org.banco.linesHintPlayoutsOrDefault
import org.banco.linesStartBalls
import org.banco.linesTimeLimits
import org.banco.linesUndoChoices
import org.banco.linesUndoNamed
import org.banco.rulesPreset
import org.banco.rulesPresets

/** The computer's levels (Rust's range: 1 to 10). */
val computerLevels: IntRange get() = levelRange().let { it.min.toInt()..it.max.toInt() }

/** Every rules preset a settings screen offers (Rust's, each name once), the usual rules first. */
fun offeredPresets(): List<RulesPreset> = boardGames().flatMap { rulesPresets(it) }.distinctBy { it.name }

/** A game's name for menus and lists ("Xiangqi", "Chess"). */
val GameKind.label: String get() = name.lowercase().replaceFirstChar { it.uppercase() }

/** The settings before the player chooses any: Rust's, the same on both phones. */
private val RUST_DEFAULTS by lazy { defaultSettings() }

data class Settings(
    /** The game played against the computer and proposed when hosting (Rust's default: xiangqi). */
    val game: GameKind = RUST_DEFAULTS.game,
    /** The computer's level, 1 (beginner) to 10 (full strength); Rust refuses others (Rust's default: 3). */
    val level: Int = RUST_DEFAULTS.level.toInt(),
    /** The colour the player takes against the computer (and proposes when hosting); Rust's default. */
    val color: Color = RUST_DEFAULTS.color,
    /** The rules preset's name (Rust's [rulesPresets]: "asian", "casual"); chess has one set of rules. */
    val rules: String = RUST_DEFAULTS.rules,
    val sound: Boolean = true,
    /** The name records and matches give the player (Rust's default: "Player"). */
    val playerName: String = RUST_DEFAULTS.playerName,
    /** Lines 98's preview in a new Lines game and in a race hosted: the board shows where the next balls land. */
    val linesPreview: Boolean = false,
    /** A new solo Lines game: balls at the start (3 or 5, [LINES_START_BALLS]); Rust's default. */
    val linesStartBalls: Int = linesDefaultOptions().startBalls.toInt(),
    /** A new solo Lines game: how far undo goes ([LINES_UNDO]); Rust's default. */
    val linesUndo: LinesUndo = linesDefaultOptions().undo,
    /** A new solo Lines game: its time limit in seconds, 0 for an untimed game ([LINES_TIME_LIMITS]); Rust's default. */
    val linesTimeLimitS: Int = linesDefaultOptions().timeLimitS.toInt(),
    /** How hard the Lines hint thinks, in playouts a move ([LINES_HINTS]), every game's; Rust's default. */
    val linesHintPlayouts: Int = linesDefaultOptions().hintPlayouts.toInt(),
    /** A Lines race hosted: balls on each board at the start (3 or 5, [RACE_START_BALLS]); Rust's default. */
    val raceStartBalls: Int = RUST_DEFAULTS.raceStartBalls.toInt(),
    /** A Lines race hosted: its time limit in minutes ([RACE_MINUTES]); Rust's default. */
    val raceMinutes: Int = RUST_DEFAULTS.raceMinutes.toInt(),
    /** The clock of the board games hosted or proposed: a name of Rust's [clockPresets] ("5+3"), "" untimed. */
    val clock: String = "",
) {
    /** The clock to offer ([clock]'s preset, Rust's), null when untimed. */
    fun matchClock(): MatchClock? = clockPreset(clock)

    /** The board game proposed when hosting or from the match screen: [game], [color], its rules and [clock]. */
    fun matchOffer(): MatchOffer = MatchOffer(game, color, rulesFor(game), null, matchClock())

    /** The race a host proposes: these start balls, time limit and preview (Rust refuses a start other than 3 or 5). */
    fun raceSettings(): RaceSettings =
        RaceSettings(raceStartBalls.coerceIn(0, 255).toUByte(), (raceMinutes.coerceIn(0, 1000) * 60).toUShort(), linesPreview)

    /** The rules of a new solo Lines game: these start balls, undo and preview (its time limit is [linesTimeLimitS]). */
    fun linesSettings(): LinesSettings = LinesSettings(linesStartBalls.coerceIn(0, 255).toUByte(), linesUndo, linesPreview)

    /** The rules to ask for in [kind]: Rust's rules of the preset in that game, null (the usual ones) without one. */
    fun rulesFor(kind: GameKind): Rules? = rulesPreset(kind, rules)

    /**
     * The settings of a game against the computer; [chanceSeed] makes jieqi's reveals repeat
     * (tests), null draws them from the system's randomness.
     */
    fun vsSettings(movetimeMs: Long, fen: String? = null, chanceSeed: Long? = null): VsSettings = VsSettings(
        kind = game,
        human = color,
        level = level.coerceIn(0, 255).toUByte(),
        rules = rulesFor(game),
        movetimeMs = movetimeMs.coerceAtLeast(0).toULong(),
        fen = fen,
        chanceSeed = chanceSeed?.toULong(),
    )

    fun save(store: KeyValueStore) {
        store.putString(K_GAME, game.name)
        store.putString(K_LEVEL, level.toString())
        store.putString(K_COLOR, color.name)
        store.putString(K_RULES, rules)
        store.putString(K_SOUND, sound.toString())
        store.putString(K_NAME, playerName)
        store.putString(K_LINES_PREVIEW, linesPreview.toString())
        store.putString(K_LINES_BALLS, linesStartBalls.toString())
        store.putString(K_LINES_UNDO, LINES_UNDO.firstOrNull { it.undo == linesUndo }?.name)
        store.putString(K_LINES_TIME, linesTimeLimitS.toString())
        store.putString(K_LINES_HINT, linesHintPlayouts.toString())
        store.putString(K_RACE_BALLS, raceStartBalls.toString())
        store.putString(K_RACE_MINUTES, raceMinutes.toString())
        store.putString(K_CLOCK, clock)
    }

    companion object {
        private const val K_GAME = "settings.game"
        private const val K_LEVEL = "settings.level"
        private const val K_COLOR = "settings.color"
        private const val K_RULES = "settings.rules"
        private const val K_SOUND = "settings.sound"
        private const val K_NAME = "settings.name"
        private const val K_LINES_PREVIEW = "settings.linesPreview"
        private const val K_LINES_BALLS = "settings.linesStartBalls"
        private const val K_LINES_UNDO = "settings.linesUndo"
        private const val K_LINES_TIME = "settings.linesTimeLimitS"
        private const val K_LINES_HINT = "settings.linesHintPlayouts"
        private const val K_RACE_BALLS = "settings.raceStartBalls"
        private const val K_RACE_MINUTES = "settings.raceMinutes"
        private const val K_CLOCK = "settings.clock"

        /** The start balls a race may have (Rust's [linesStartBalls]: 3 or 5). */
        val RACE_START_BALLS: List<Int> get() = linesStartBalls().map { it.toInt() }

        /** The start balls a new Lines game may have (Rust's [linesStartBalls]: 3 or 5). */
        val LINES_START_BALLS: List<Int> get() = linesStartBalls().map { it.toInt() }

        /** The undo rules a new Lines game may have, with a name to store and a label to show (Rust's). */
        val LINES_UNDO: List<LinesUndoChoice> get() = linesUndoChoices()

        /** The time limits a new Lines game may have, with their labels; 0 is untimed (Rust's). */
        val LINES_TIME_LIMITS: List<LinesTimeLimit> get() = linesTimeLimits()

        /** The Lines hint's strengths (playouts a move, with their labels), the quickest first (Rust's). */
        val LINES_HINTS: List<LinesHintChoice> get() = linesHintChoices()

        /** The race time limits offered, in minutes (Rust's [raceTimeLimits]): 2 to 60; every race has one. */
        val RACE_MINUTES: List<Int> get() = raceTimeLimits().map { (it.seconds / 60u).toInt() }

        /** How a race time limit of [minutes] reads, in Rust's words ("5 min", "60 min"). */
        fun raceMinutesLabel(minutes: Int): String =
            raceTimeLimits().firstOrNull { it.seconds.toInt() == minutes * 60 }?.label ?: "$minutes min"

        /** Settings from [store]; anything missing, damaged or out of range is the default. */
        fun load(store: KeyValueStore): Settings {
            val d = Settings()
            return Settings(
                game = boardGames().firstOrNull { it.name == store.getString(K_GAME) } ?: d.game,
                level = store.getString(K_LEVEL)?.toIntOrNull()?.takeIf { it in computerLevels } ?: d.level,
                color = Color.entries.firstOrNull { it.name == store.getString(K_COLOR) } ?: d.color,
                // A stored name of a preset (older apps stored "ASIAN"/"CASUAL": any case is read).
                rules = store.getString(K_RULES)?.let { v -> offeredPresets().firstOrNull { it.name.equals(v, ignoreCase = true) }?.name }
                    ?: d.rules,
                sound = store.getString(K_SOUND)?.toBooleanStrictOrNull() ?: d.sound,
                playerName = store.getString(K_NAME)?.let(::playerDisplayName) ?: d.playerName,
                linesPreview = store.getString(K_LINES_PREVIEW)?.toBooleanStrictOrNull() ?: d.linesPreview,
                linesStartBalls = store.getString(K_LINES_BALLS)?.toIntOrNull()?.takeIf { it in LINES_START_BALLS } ?: d.linesStartBalls,
                linesUndo = store.getString(K_LINES_UNDO)?.let(::linesUndoNamed) ?: d.linesUndo,
                linesTimeLimitS = store.getString(K_LINES_TIME)?.toIntOrNull()
                    ?.takeIf { s -> LINES_TIME_LIMITS.any { it.seconds.toInt() == s } } ?: d.linesTimeLimitS,
                // Rust's rule: one not offered is the default.
                linesHintPlayouts = store.getString(K_LINES_HINT)?.toUIntOrNull()?.let { linesHintPlayoutsOrDefault(it).toInt() }
                    ?: d.linesHintPlayouts,
                raceStartBalls = store.getString(K_RACE_BALLS)?.toIntOrNull()?.takeIf { it in RACE_START_BALLS } ?: d.raceStartBalls,
                raceMinutes = store.getString(K_RACE_MINUTES)?.toIntOrNull()?.takeIf { it in RACE_MINUTES } ?: d.raceMinutes,
                clock = store.getString(K_CLOCK)?.takeIf { clockPreset(it) != null } ?: d.clock,
            )
        }
    }
}
