// Threading and state plumbing shared by the controllers: no Android imports.
//
// Every controller is confined to one thread, "the UI thread" of its [UiDispatcher]: its public
// methods are called there, its state changes there, and its observers run there. Banco's
// listeners are called on Rust-owned threads; the controllers hop to the UI thread with
// [UiDispatcher.post] before touching anything. On Android the dispatcher posts to the main
// Looper; in the JVM tests it is a single-thread executor.
package org.banco.shell

/** Runs blocks on the UI thread, in order. */
fun interface UiDispatcher {
    fun post(block: () -> Unit)

    /**
     * Runs [block] on the UI thread after [delayMs] (Android: `Handler.postDelayed`); returns a
     * cancel. By default a shared timer thread waits, then [post]s.
     */
    fun postDelayed(delayMs: Long, block: () -> Unit): () -> Unit {
        val f = UiTimer.scheduler.schedule({ post(block) }, delayMs, java.util.concurrent.TimeUnit.MILLISECONDS)
        return { f.cancel(false) }
    }
}

private object UiTimer {
    val scheduler: java.util.concurrent.ScheduledExecutorService =
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor { r -> Thread(r, "banco-ui-timer").apply { isDaemon = true } }
}

/**
 * Slow work off the UI thread (a PNG drawn, a shared record read and parsed): [run] does the
 * work on [background] (a plain thread unless a test says otherwise) and hands its result, or
 * what it threw, to the UI thread through [ui].
 */
class Worker(
    private val ui: UiDispatcher,
    private val background: (() -> Unit) -> Unit = { block -> Thread(block, "banco-work").apply { isDaemon = true }.start() },
) {
    fun <T> run(work: () -> T, done: (Result<T>) -> Unit) = background {
        val result = runCatching(work)
        ui.post { done(result) }
    }
}

/** A value that tells its observers when it changes (a tiny LiveData/StateFlow). */
class Observable<T>(initial: T) {
    private val observers = mutableListOf<(T) -> Unit>()

    var value: T = initial
        set(v) {
            if (v == field) return
            field = v
            for (o in observers.toList()) o(v)
        }

    /** Calls [observer] now with the current value and after every change; returns a cancel. */
    fun observe(observer: (T) -> Unit): () -> Unit {
        observers += observer
        observer(value)
        return { observers -= observer }
    }
}

/** Key-value storage for settings and the game to continue (SharedPreferences on Android). */
interface KeyValueStore {
    fun getString(key: String): String?
    fun putString(key: String, value: String?)
}

/**
 * [store] as Rust's [org.banco.KeptStore]: a [org.banco.KeptSlot] over it reads, sets aside
 * and writes the records kept between sessions (the games to continue, Lines' best scores)
 * by Rust's one policy; the controllers show its notices.
 */
class KeptStoreOf(private val store: KeyValueStore) : org.banco.KeptStore {
    override fun get(key: String): String? = store.getString(key)
    override fun put(key: String, value: String) = store.putString(key, value)
    override fun remove(key: String) = store.putString(key, null)
}

/** A [KeyValueStore] in memory (tests, previews). */
class MemoryStore : KeyValueStore {
    private val map = java.util.concurrent.ConcurrentHashMap<String, String>()
    override fun getString(key: String): String? = map[key]
    override fun putString(key: String, value: String?) {
        if (value == null) map.remove(key) else map[key] = value
    }
}

/** The sounds a controller asks for; the platform layer plays them. */
enum class Sound { MOVE, CAPTURE, CHECK, GAME_OVER }

fun interface SoundPlayer {
    fun play(sound: Sound)

    companion object {
        val SILENT = SoundPlayer { }
    }
}

/** Sound for a played move. */
internal fun soundOf(played: org.banco.PlayedMove): Sound = when {
    played.givesCheck -> Sound.CHECK
    played.captured != null -> Sound.CAPTURE
    else -> Sound.MOVE
}

/**
 * The sounds of a stream of states, each once: a move newer than the last one heard (by its
 * ply; undo only moves the mark back), and the end of the game when it comes. The first
 * state sets the mark without a sound (a continued game is not replayed aloud).
 */
internal class SoundCues {
    private var ply: Long = -1
    private var ended = false

    fun next(lastMove: org.banco.PlayedMove?, over: Boolean): List<Sound> {
        val now = lastMove?.ply?.toLong() ?: 0L
        val out = mutableListOf<Sound>()
        if (ply >= 0 && lastMove != null && now > ply) out += soundOf(lastMove)
        if (ply >= 0 && over && !ended) out += Sound.GAME_OVER
        ply = now
        ended = over
        return out
    }
}

/** The readable message of anything Banco throws. */
internal fun readable(e: Throwable): String = e.message?.takeIf { it.isNotBlank() } ?: e.toString()

/**
 * This device's identity and the players whose code was confirmed, kept in [store] between
 * matches (Rust's `Match.exportTrust()` bytes, Base64 at [KEY]): pass [load] as a match's
 * `trust` and [save] as its `onTrust`, and a remembered player skips the code next time
 * while a changed key is loud (Rust decides both).
 *
 * The bytes hold the device's secret key: [store] is kept out of backups and device
 * transfers (on Android the preferences file `banco-trust`, excluded by the app's backup
 * rules). Bytes an earlier version kept in the general store, [legacy], move to [store]
 * once, at the first [load].
 */
class TrustKeeper(private val store: KeyValueStore, private val legacy: KeyValueStore? = null) {
    private var notice: String? = null

    /**
     * The kept bytes, or null before the first confirmed code. Kept bytes that cannot be
     * read (text that is not Base64, or bytes Rust refuses as damaged) are set aside at
     * [SET_ASIDE], never deleted, and the match starts with a fresh identity: a dead end
     * (no match at all until the app's data is cleared) would be worse than remembered
     * players seeing a new key once. [takeNotice] then says so.
     */
    fun load(): ByteArray? {
        migrate()
        val text = store.getString(KEY) ?: return null
        val bytes = try {
            java.util.Base64.getDecoder().decode(text)
        } catch (e: IllegalArgumentException) {
            null
        }
        if (bytes != null && readable(bytes)) return bytes
        if (store.getString(SET_ASIDE) == null) store.putString(SET_ASIDE, text)
        store.putString(KEY, null)
        notice = DAMAGED
        return null
    }

    /** What the last [load] had to do that the player should know (once), or null. */
    fun takeNotice(): String? = notice.also { notice = null }

    private fun readable(bytes: ByteArray): Boolean = try {
        org.banco.trustFingerprint(bytes)
        true
    } catch (e: org.banco.BancoException) {
        false
    }

    /** Keeps [bytes] (called by the match after a confirmed code). */
    fun save(bytes: ByteArray) {
        migrate()
        store.putString(KEY, java.util.Base64.getEncoder().encodeToString(bytes))
    }

    /** Moves the bytes kept by an earlier version from [legacy] to [store] (written first, then removed). */
    private fun migrate() {
        val old = legacy?.getString(KEY) ?: return
        if (store.getString(KEY) == null) store.putString(KEY, old)
        legacy.putString(KEY, null)
    }

    companion object {
        const val KEY = "match.trust"

        /** Where unreadable kept bytes are set aside (the first ones: a later damage does not replace them). */
        const val SET_ASIDE = "match.trust.damaged"

        /** What the player is told when the kept bytes could not be read. */
        const val DAMAGED = "This device's key and remembered players could not be read: they were set aside, " +
            "and this device starts with a new key (players you played before compare a code again)"
    }
}
