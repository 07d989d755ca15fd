// Entry point of the Swift binding tests (bindings/scripts/test-swift.sh).
import Foundation

let suite = Suite()
gameTests(suite)
chessTests(suite)
vsComputerTests(suite)
engineMatchTests(suite)
hardeningTests(suite)
jieqiTests(suite)
lobbyTests(suite)
linesTests(suite)
garbageTests(suite)
recordsTests(suite)
bleTests(suite)
let failed = suite.run()
exit(failed == 0 ? 0 : 1)
