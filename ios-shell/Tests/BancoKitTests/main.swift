// Entry point of the BancoKit tests (ios-shell/scripts/test.sh).
import Foundation
import BancoKit

let suite = Suite()
boardTests(suite)
vsTests(suite)
jieqiTests(suite)
matchTests(suite)
bleGateTests(suite)
nearbyTests(suite)
nearbyRaceTests(suite)
clockTests(suite)
matchMoreTests(suite)
recordsShellTests(suite)
linesTests(suite)
linesSoloTests(suite)
workerTests(suite)
let failed = suite.run()
exit(failed == 0 ? 0 : 1)
