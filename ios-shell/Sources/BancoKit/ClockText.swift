// The clock of a networked game in words: the clock a proposal offers, shown in the accept
// prompt before the player agrees to it ("5:00 + 3s"), and both running clocks during play
// ("0:42"; tenths under ten seconds, "0:09.4"). Rust keeps the time; these only format what
// MatchState says, read again by MatchModel.tick() once a second or so while playing.
import Foundation

private func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }

/// A duration as `m:ss` (`h:mm:ss` from an hour), rounded down to the second.
public func durationText(ms: Int64) -> String {
    let s = max(ms, 0) / 1000
    let h = s / 3600
    return h > 0 ? "\(h):\(two(s / 60 % 60)):\(two(s % 60))" : "\(s / 60):\(two(s % 60))"
}

/// A clock's remaining time: `m:ss`, with tenths under ten seconds (`0:09.4`), never negative.
public func remainingText(ms: Int64) -> String {
    let left = max(ms, 0)
    return left < 10_000 ? "0:\(two(left / 1000)).\(left / 100 % 10)" : durationText(ms: left)
}

/// The clock a game is offered with: `5:00 + 3s`, `10:00` without increment, `untimed` for none.
public func clockText(_ clock: MatchClock?) -> String {
    guard let c = clock else { return "untimed" }
    let base = durationText(ms: Int64(c.baseMs))
    let inc = Int64(c.incrementMs)
    if inc == 0 { return base }
    let incText = inc % 1000 == 0 ? "\(inc / 1000)" : "\(inc / 1000).\(inc % 1000 / 100)"
    return "\(base) + \(incText)s"
}

/// Both clocks of a timed game from this player's side, and which one runs.
public struct ClockFaces: Equatable {
    public var you: String
    public var opponent: String
    public var yourClockRuns: Bool
    public var opponentClockRuns: Bool
}

extension MatchModel.State {
    /// The clock of the proposal to accept, for the prompt (`untimed` if it has none); nil without a proposal.
    public var offeredClock: String? {
        guard let m = match, m.phase == .proposed, let p = m.proposal else { return nil }
        return clockText(p.clock)
    }

    /// The running clocks of a timed game (the side to move's runs while playing); nil when untimed.
    public var clocks: ClockFaces? {
        guard let m = match, let c = m.clocks, c.count == 2, let me = m.yourColor else { return nil }
        // Rust lists [first, second] player: red (white in chess) first.
        let (mine, theirs) = me == .red ? (c[0], c[1]) : (c[1], c[0])
        let playing = m.phase == .playing && m.outcome == nil
        return ClockFaces(you: remainingText(ms: Int64(clamping: mine)), opponent: remainingText(ms: Int64(clamping: theirs)),
                          yourClockRuns: playing && m.sideToMove == me,
                          opponentClockRuns: playing && m.sideToMove != nil && m.sideToMove != me)
    }
}
