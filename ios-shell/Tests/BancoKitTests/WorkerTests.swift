// Slow work off the UI thread: the picture of the game on screen and of the editor's board
// (a PNG drawn by Rust) and a shared record read and parsed run on a worker queue, and their
// results come back on the UI queue (failures too, as reasons).
import Foundation
import BancoKit

/// Records where each step ran: on the UI queue of `ui` or elsewhere (the worker).
final class StepLog {
    private let key = DispatchSpecificKey<String>()
    private let lock = NSLock()
    private var steps: [String] = []

    init(_ ui: TestUI) { ui.queue.setSpecific(key: key, value: "ui") }

    func here(_ step: String) {
        let place = DispatchQueue.getSpecific(key: key) == "ui" ? "ui" : "worker"
        lock.lock()
        steps.append("\(step) on \(place)")
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return steps
    }

    func clear() {
        lock.lock()
        steps = []
        lock.unlock()
    }
}

func workerTests(_ s: Suite) {
    s.test("off the UI thread: pictures drawn and shared records parsed on a worker, handed back on the UI thread") {
        let f = VsFixture()
        defer { f.close() }
        let ui = f.ui
        let worker = Worker(ui: ui)
        let log = StepLog(ui)

        // A shared record, read (a file, say) and parsed on the worker.
        var opened: Result<GameShare.Opened, GameShare.OpenError>?
        ui.call {
            GameShare.open(read: { log.here("read"); return "[Event \"Club\"]\n\n1. e4 e5 2. Nf3 *" }, worker: worker) {
                log.here("done")
                opened = $0
            }
        }
        let chess = try ui.wait("the record", { opened }, until: { $0 != nil })!.get()
        try eq(GameKind.chess, chess.kind)
        try eq(3, chess.plies)
        try eq(Color.black, chess.sideToMove)
        try eq(["read on worker", "done on ui"], log.all)

        // A bad record and an unreadable file: their reasons, on the UI queue.
        var bad: Result<GameShare.Opened, GameShare.OpenError>?
        ui.call { GameShare.open(read: { "1. e4 e5 2. Ke3 Nc6 *" }, worker: worker) { bad = $0 } }
        guard case .failure(let why) = try ui.wait("a bad record", { bad }, until: { $0 != nil })! else {
            throw TestFailure(description: "a bad record opened")
        }
        try check(why.description.contains("move 2 (White) `Ke3`"), why.description)
        var unreadable: Result<GameShare.Opened, GameShare.OpenError>?
        ui.call {
            GameShare.open(read: { throw TestFailure(description: "gone") }, worker: worker) { unreadable = $0 }
        }
        guard case .failure(let unread) = try ui.wait("an unreadable file", { unreadable }, until: { $0 != nil })! else {
            throw TestFailure(description: "an unreadable file opened")
        }
        try eq("The file could not be read as text.", unread.description)

        // The picture of the game on screen ("Share picture"), drawn on the worker.
        ui.call { _ = f.model.newGame(Settings(level: 1, sound: false)) }
        let vs = try f.myTurn(0)
        log.clear()
        var picture: Result<Picture, Error>?
        ui.call {
            log.here("ask")
            GameShare.picture(vs, scale: 1, worker: Worker(ui: ui, background: { block in
                DispatchQueue(label: "test-worker").async {
                    log.here("draw")
                    block()
                }
            })) {
                log.here("done")
                picture = $0
            }
        }
        let pic = try ui.wait("the picture", { picture }, until: { $0 != nil })!.get()
        try check(isPng(pic.png) && pic.svg.contains("class=\"piece "), String(pic.svg.prefix(200)))
        try eq(["ask on ui", "draw on worker", "done on ui"], log.all)

        // The editor's picture: its PNG on the editor's background queue, handed back on the UI
        // queue. The queue is held first: the picture waits for it (not drawn on the UI queue).
        log.clear()
        let background = DispatchQueue(label: "test-worker")
        let ed = ui.call { EditorModel(ui: ui, background: background) }
        ui.call { _ = ed.open(.xiangqi) }
        background.suspend()
        var edPicture: Picture?
        ui.call {
            log.here("editor ask")
            ed.pictureLater(scale: 1) {
                log.here("editor done")
                edPicture = $0
            }
        }
        ui.call {}
        try check(ui.call { edPicture } == nil, "nothing drawn while the background queue is held")
        background.resume()
        let p = try ui.wait("the editor's picture", { edPicture }, until: { $0 != nil })!
        try check(isPng(p.png) && p.svg.contains(">帥</text>"), String(p.svg.prefix(200)))
        try eq(["editor ask on ui", "editor done on ui"], log.all)
    }
}
