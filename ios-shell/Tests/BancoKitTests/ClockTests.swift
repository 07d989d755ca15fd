// The clock in the shell: a match between two MatchModels over loopback where the host offers
// 5:00 + 3s, the guest's accept prompt shows Rust's text for it before accepting, and the
// clocks Rust makes ready to show (MatchState.clockFaces) run during play: the model reads
// the state again by itself when the running clock's text changes, with no move and no call
// from the screen.
import Foundation
import BancoKit

func clockTests(_ s: Suite) {
    s.test("clock: the offered clock in the accept prompt, the running clocks in play, ticking by themselves") {
        let offered = MatchClock(baseMs: 300_000, incrementMs: 3_000)
        try eq("5:00 + 3s", offerClockText(clock: offered), "the host's own choice, as Rust writes it")
        let host = Side(), guest = Side()
        // The clock chosen in Settings (Rust's presets), stored and read back as a settings screen does.
        try eq(["5+3", "10+5", "15+10"], clockPresets().map { $0.name }, "Rust's clock presets")
        try eq("5:00 + 3s", clockPresets()[0].label, "a preset's label")
        let store = MemoryStore()
        Settings(game: .chess, color: .red, playerName: "An", clock: "5+3").save(store)
        let settings = Settings.load(store)
        try eq(offered, settings.matchClock, "the stored preset's clock")
        try eq(nil, Settings().matchClock, "untimed by default")
        host.model = try host.ui.call {
            try MatchModel.host(ui: host.ui, settings: settings, address: "127.0.0.1:0", advertise: false)
        }
        defer { guest.leave(); host.leave() }
        let address = try host.wait("listening") { $0.phase == .listening }.address
        guest.model = try guest.ui.call { try MatchModel.join(ui: guest.ui, name: "Binh", address: address) }
        let hc = try host.wait("host code") { $0.phase == .verify }.code!
        let gc = try guest.wait("guest code") { $0.phase == .verify }.code!
        try eq(nil, guest.state.match?.offeredClock, "no prompt before a proposal")
        host.act { $0.confirmCode(hc) }
        guest.act { $0.confirmCode(gc) }
        let prompt = try guest.wait("the proposal") { $0.phase == .proposed }
        try eq("5:00 + 3s", prompt.offeredClock, "the accept prompt shows the clock")
        try eq("You play Black\nClock: 5:00 + 3s", prompt.offeredTerms, "the accept prompt's words (Rust's, as on Android)")
        try eq(nil, prompt.clockFaces, "no clocks before the game")
        guest.act { $0.acceptOffer($0.state.match!.proposalId!) }
        let hostFaces = try host.wait("host playing") { $0.phase == .playing }.clockFaces
        try eq("5:00", hostFaces?.opponent.text, "the host's state shows the clocks too (Black's not started)")
        let started = try guest.wait("guest playing") { $0.phase == .playing }
        try eq(nil, started.offeredClock, "the prompt is gone once playing")
        guard let faces = started.clockFaces else { throw TestFailure(description: "a timed game shows clocks") }
        try eq("5:00", faces.you.text, "Black's clock has not started")
        try check(faces.opponent.running && !faces.you.running, "White's clock runs first: \(faces)")
        try host.tap("e2", "e4")
        let after = try guest.wait("black to move") { $0.yourTurn }.clockFaces!
        try check(after.you.running && !after.opponent.running, "now Black's runs: \(after)")
        try check(after.opponent.remainingMs > 299_000, "White got its 3 s increment: \(after)")
        try check((after.nextChangeMs ?? 0) > 0 && (after.nextChangeMs ?? 0) <= 1_000, "Rust says when the text changes: \(after)")
        // Nobody moves and nobody calls tick(): the model's own timer shows Black's clock running.
        let later = try guest.ui.wait("Black's clock counting down", seconds: 5, { guest.model.state.match?.clockFaces }) {
            $0.map { $0.you.text != after.you.text } ?? false
        }!
        try check(later.you.remainingMs < after.you.remainingMs, "Black's clock runs: \(after) -> \(later)")
        try eq(after.opponent.text, later.opponent.text, "White's clock is stopped")
        try check(later.you.running && !later.you.low, "\(later)")
        // After a resignation nothing runs, and nothing more is scheduled.
        guest.act { $0.resign() }
        let over = try guest.wait("over") { $0.phase == .over }.clockFaces!
        try check(!over.you.running && !over.opponent.running && over.nextChangeMs == nil, "\(over)")
    }
}
