// Entry point of the Swift binding tests (bindings/scripts/test-swift.sh).
import Foundation

let suite = Suite()
gameTests(suite)
engineMatchTests(suite)
lobbyAndErrorTests(suite)
let failed = suite.run()
exit(failed == 0 ? 0 : 1)
