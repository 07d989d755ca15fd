// Entry point of the Kotlin binding tests (bindings/scripts/test-kotlin.sh).
package org.banco.tests

import kotlin.system.exitProcess

fun main() {
    val suite = Suite()
    gameTests(suite)
    chessTests(suite)
    garbageTests(suite)
    vsComputerTests(suite)
    engineTests(suite)
    matchTests(suite)
    linesTests(suite)
    jieqiTests(suite)
    recordsTests(suite)
    bleTests(suite)
    hardeningTests(suite)
    val failed = suite.run()
    exitProcess(if (failed == 0) 0 else 1)
}
