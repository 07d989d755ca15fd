// A tiny test harness (no JUnit, like the binding tests): named tests, the last line printed
// is `N passed, M failed`. [TestUi] plays the Android main thread: one "ui" thread that runs
// posted blocks in order; tests call the controllers through it and wait on their state.
package org.banco.shell.tests

import org.banco.shell.Observable
import org.banco.shell.UiDispatcher
import java.util.concurrent.Callable
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit

class Suite {
    private val tests = mutableListOf<Pair<String, () -> Unit>>()

    fun test(name: String, body: () -> Unit) {
        tests += name to body
    }

    fun run(): Int {
        var passed = 0
        var failed = 0
        for ((name, body) in tests) {
            val start = System.nanoTime()
            try {
                body()
                passed++
                println("PASS $name (${(System.nanoTime() - start) / 1_000_000} ms)")
            } catch (t: Throwable) {
                failed++
                println("FAIL $name: $t")
                t.printStackTrace(System.out)
            }
        }
        println("$passed passed, $failed failed")
        return failed
    }
}

class TestUi : UiDispatcher {
    @Volatile var uiThread: Thread? = null
    private val executor = Executors.newSingleThreadExecutor { r ->
        Thread(r, "ui").also { it.isDaemon = true; uiThread = it }
    }

    /** Like a Looper that has quit, a shut-down UI drops what is posted (a late engine answer). */
    override fun post(block: () -> Unit) {
        try {
            executor.execute(block)
        } catch (e: java.util.concurrent.RejectedExecutionException) {
            // dropped
        }
    }

    /** Runs [block] on the UI thread and returns its value. */
    fun <T> call(block: () -> T): T = executor.submit(Callable(block)).get(60, TimeUnit.SECONDS)

    /** Waits (up to [seconds]) until [pred] holds for the value of [obs], read on the UI thread. */
    fun <S> await(obs: Observable<S>, what: String, seconds: Long = 30, pred: (S) -> Boolean): S {
        val deadline = System.nanoTime() + seconds * 1_000_000_000
        while (true) {
            val v = call { obs.value }
            if (pred(v)) return v
            if (System.nanoTime() > deadline) throw AssertionError("timed out waiting for $what; last state: $v")
            Thread.sleep(10)
        }
    }

    fun shutdown() = executor.shutdownNow()
}

fun check(condition: Boolean, message: () -> String = { "check failed" }) {
    if (!condition) throw AssertionError(message())
}

fun <T> eq(expected: T, actual: T, what: String = "value") {
    if (expected != actual) throw AssertionError("$what: expected <$expected>, got <$actual>")
}

/** Runs [block], which must throw an [E]; returns it. */
inline fun <reified E : Throwable> throws(block: () -> Unit): E {
    try {
        block()
    } catch (e: Throwable) {
        if (e is E) return e
        throw AssertionError("expected ${E::class.simpleName}, got $e")
    }
    throw AssertionError("expected ${E::class.simpleName}, nothing was thrown")
}
