// Player settings: AI level, colour against the AI, rules preset, sound, name.
package org.banco.shell

import org.banco.Color
import org.banco.RepetitionRule
import org.banco.Rules
import org.banco.defaultRules

/** The rule presets offered in settings. */
enum class RulesPreset(val label: String) {
    /** Asian rules: perpetual check and perpetual chase lose (tournament play). */
    ASIAN("Asian (perpetual check and chase lose)"),

    /** Casual rules: perpetual check loses, any other repetition draws. */
    CASUAL("Casual (only perpetual check loses)");

    val repetition: RepetitionRule
        get() = if (this == ASIAN) RepetitionRule.ASIAN else RepetitionRule.CASUAL

    fun rules(): Rules = defaultRules().copy(repetition = repetition)
}

data class Settings(
    /** AI level, 1 (beginner) to 10 (full strength). */
    val level: Int = 3,
    /** The colour the player takes against the AI (and proposes when hosting). */
    val color: Color = Color.RED,
    val rules: RulesPreset = RulesPreset.ASIAN,
    val sound: Boolean = true,
    val playerName: String = "Player",
) {
    init {
        require(level in 1..10) { "level $level is not 1 to 10" }
    }

    fun save(store: KeyValueStore) {
        store.putString(K_LEVEL, level.toString())
        store.putString(K_COLOR, color.name)
        store.putString(K_RULES, rules.name)
        store.putString(K_SOUND, sound.toString())
        store.putString(K_NAME, playerName)
    }

    companion object {
        private const val K_LEVEL = "settings.level"
        private const val K_COLOR = "settings.color"
        private const val K_RULES = "settings.rules"
        private const val K_SOUND = "settings.sound"
        private const val K_NAME = "settings.name"

        /** Settings from [store]; anything missing or damaged falls back to its default. */
        fun load(store: KeyValueStore): Settings {
            val d = Settings()
            return Settings(
                level = store.getString(K_LEVEL)?.toIntOrNull()?.coerceIn(1, 10) ?: d.level,
                color = Color.entries.firstOrNull { it.name == store.getString(K_COLOR) } ?: d.color,
                rules = RulesPreset.entries.firstOrNull { it.name == store.getString(K_RULES) } ?: d.rules,
                sound = store.getString(K_SOUND)?.toBooleanStrictOrNull() ?: d.sound,
                playerName = store.getString(K_NAME)?.trim()?.take(32)?.takeIf { it.isNotEmpty() } ?: d.playerName,
            )
        }
    }
}
