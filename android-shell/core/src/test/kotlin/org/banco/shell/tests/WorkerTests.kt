// Slow work off the UI thread: the picture of the game on screen and of the editor's board
// (a PNG drawn by Rust) and a shared record read and parsed run on a worker thread, and their
// results come back on the UI thread (failures too, as reasons).
package org.banco.shell.tests

import org.banco.Color
import org.banco.GameKind
import org.banco.shell.EditorController
import org.banco.shell.GameShare
import org.banco.shell.Observable
import org.banco.shell.Picture
import org.banco.shell.Settings
import org.banco.shell.Worker
import java.util.concurrent.ConcurrentLinkedQueue

fun workerTests(s: Suite) {
    s.test("off the UI thread: pictures drawn and shared records parsed on a worker, handed back on the UI thread") {
        GameFixture().use { f ->
            val ui = f.ui
            val worker = Worker(ui)
            // Where each step ran: "work" on the worker, "done" on the UI thread.
            val steps = ConcurrentLinkedQueue<String>()
            fun where(step: String) = steps.add("$step on ${if (Thread.currentThread() === ui.uiThread) "ui" else "worker"}")

            // A shared record, read (a file, say) and parsed on the worker.
            val opened = Observable<Result<GameShare.Opened>?>(null)
            ui.call {
                GameShare.openLater(worker, { where("read"); "[Event \"Club\"]\n\n1. e4 e5 2. Nf3 *" }) { where("done"); opened.value = it }
            }
            val chess = ui.await(opened, "the record") { it != null }!!.getOrThrow()
            eq(listOf(GameKind.CHESS.name, "3", Color.BLACK.name), listOf(chess.kind.name, "${chess.plies}", chess.sideToMove.name))
            eq(listOf("read on worker", "done on ui"), steps.toList())

            // A bad record and an unreadable file: their reasons, on the UI thread.
            val bad = Observable<Result<GameShare.Opened>?>(null)
            ui.call { GameShare.openLater(worker, { "1. e4 e5 2. Ke3 Nc6 *" }) { bad.value = it } }
            val why = ui.await(bad, "a bad record") { it != null }!!.exceptionOrNull()?.message ?: ""
            check(why.contains("move 2 (White) `Ke3`")) { why }
            val unreadable = Observable<Result<GameShare.Opened>?>(null)
            ui.call { GameShare.openLater(worker, { throw IllegalStateException("the file is gone") }) { unreadable.value = it } }
            eq("the file is gone", ui.await(unreadable, "an unreadable file") { it != null }!!.exceptionOrNull()?.message)

            // The picture of the game on screen ("Share picture"), drawn on the worker.
            steps.clear()
            ui.call { f.c.newGame(Settings(level = 1, sound = false)) }
            val vs = f.awaitTurn(0)
            val picture = Observable<Result<Picture>?>(null)
            // A worker whose background says where it runs, held until the UI thread is idle: the
            // picture waits for it (it is not drawn on the UI thread), then comes back there.
            val held = ConcurrentLinkedQueue<() -> Unit>()
            val drawing = Worker(ui, background = { block -> held.add(block) })
            ui.call { where("ask"); GameShare.pictureLater(drawing, vs, 1f) { where("done"); picture.value = it } }
            eq(null, ui.call { picture.value }, "nothing drawn before the worker runs")
            val block = held.single()
            Thread({ where("draw"); block() }, "test-worker").start()
            val pic = ui.await(picture, "the picture") { it != null }!!.getOrThrow()
            check(isPng(pic.png) && pic.svg.contains("class=\"piece ")) { pic.svg.take(200) }
            eq(listOf("ask on ui", "draw on worker", "done on ui"), steps.toList())

            // The editor's picture: its PNG off the UI thread too.
            val drawnOn = ConcurrentLinkedQueue<Thread>()
            val ed = EditorController(ui, background = { block -> Thread({ drawnOn.add(Thread.currentThread()); block() }, "test-worker").start() })
            val edPicture = Observable<Picture?>(null)
            ui.call {
                check(ed.open(GameKind.XIANGQI))
                ed.pictureLater(1f) { edPicture.value = it }
            }
            val p = ui.await(edPicture, "the editor's picture") { it != null }!!
            check(isPng(p.png) && p.svg.contains(">帥</text>")) { p.svg.take(200) }
            eq(listOf("test-worker"), drawnOn.map { it.name }, "drawn on the worker")
        }
    }
}
