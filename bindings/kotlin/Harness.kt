// A tiny test harness (no JUnit: the bindings need only JNA). Each test is a named lambda;
// the last line printed is `N passed, M failed`, and the exit code is 1 if any failed.
package org.banco.tests

import org.banco.BancoException

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

fun check(condition: Boolean, message: () -> String = { "check failed" }) {
    if (!condition) throw AssertionError(message())
}

fun <T> eq(expected: T, actual: T, what: String = "value") {
    if (expected != actual) throw AssertionError("$what: expected <$expected>, got <$actual>")
}

inline fun <reified E : Throwable> throws(block: () -> Unit): E {
    try {
        block()
    } catch (e: Throwable) {
        if (e is E) return e
        throw AssertionError("expected ${E::class.simpleName}, got $e")
    }
    throw AssertionError("expected ${E::class.simpleName}, nothing was thrown")
}

/** [block] must throw a BancoException of one of [types], with a message. */
fun refused(what: String, vararg types: Class<out BancoException>, block: () -> Unit) {
    try {
        block()
    } catch (e: BancoException) {
        check(types.any { it.isInstance(e) }) { "$what: expected ${types.map { it.simpleName }}, got $e" }
        check(!e.message.isNullOrBlank()) { "$what: empty message" }
        return
    }
    throw AssertionError("$what: accepted, expected ${types.map { it.simpleName }}")
}

/** [block] may succeed, or throw a BancoException of one of [types] with a message. */
fun mayRefuse(what: String, vararg types: Class<out BancoException>, block: () -> Unit) {
    try {
        block()
    } catch (e: BancoException) {
        check(types.any { it.isInstance(e) }) { "$what: expected ${types.map { it.simpleName }}, got $e" }
        check(!e.message.isNullOrBlank()) { "$what: empty message" }
    }
}
