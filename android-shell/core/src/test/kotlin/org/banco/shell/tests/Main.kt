// Entry point of the android-shell core tests (android-shell/scripts/test-core.sh).
package org.banco.shell.tests

import kotlin.system.exitProcess

fun main() {
    val suite = Suite()
    boardTests(suite)
    gameTests(suite)
    jieqiTests(suite)
    lobbyMatchTests(suite)
    bleGateTests(suite)
    nearbyTests(suite)
    nearbyRaceTests(suite)
    clockTests(suite)
    matchMoreTests(suite)
    recordsShellTests(suite)
    linesTests(suite)
    linesSoloTests(suite)
    workerTests(suite)
    val failed = suite.run()
    exitProcess(if (failed == 0) 0 else 1)
}
