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
 * This device's identity and the players whose code was confirmed, kept between matches by
 * Rust's [org.banco.TrustKeeper] (its policy: unreadable bytes set aside at
 * `match.trust.damaged` with a notice to show once, a fresh identity then, bytes of an earlier
 * version moved once out of [legacy]): pass its `load()` as a match's `trust` and its `save`
 * as its `onTrust`. This hands it the store only.
 *
 * The bytes hold the device's secret key: [store] is kept out of backups and device
 * transfers (on Android the preferences file `banco-trust`, excluded by the app's backup
 * rules); [legacy] is the general store where an earlier version kept them.
 */
fun trustKeeper(store: KeyValueStore, legacy: KeyValueStore? = null): org.banco.TrustKeeper =
    org.banco.TrustKeeper.inTextStore(KeptStoreOf(store), legacy?.let(::KeptStoreOf))
