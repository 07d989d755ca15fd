// The screens of issue 18, kept out of MainActivity: the position editor, the puzzle
// collection by tier, sharing the game on screen (PGN through the share sheet) or a picture of
// its position (PNG through a FileProvider), and opening a game shared with Banco. Everything
// is decided by the core controllers (EditorController, PuzzleController, GameShare) and Rust;
// this file shows their state and forwards taps.
package org.banco.app

import android.app.AlertDialog
import android.content.Intent
import android.graphics.Color as AndroidColor
import android.view.Gravity
import android.view.View
import android.widget.Button
import android.widget.GridLayout
import android.widget.HorizontalScrollView
import android.widget.LinearLayout
import android.widget.TextView
import android.widget.Toast
import androidx.activity.ComponentActivity
import androidx.core.content.FileProvider
import org.banco.Color
import org.banco.GameKind
import org.banco.shell.EditorController
import org.banco.shell.GameController
import org.banco.shell.GameShare
import org.banco.shell.MatchRecords
import org.banco.shell.Picture
import org.banco.shell.PuzzleController
import org.banco.shell.Settings
import org.banco.shell.Worker
import org.banco.shell.label
import org.banco.shell.words
import java.io.File
import java.time.LocalDate

class RecordsScreens(
    private val activity: ComponentActivity,
    private val game: GameController,
    private val puzzles: PuzzleController,
    private val settings: () -> Settings,
    /** Shows a screen (not the home one) in place of the current one. */
    private val setScreen: (View, onLeave: () -> Unit) -> Unit,
    /** Shows the game screen and starts a game on it. */
    private val showGame: ((GameController) -> Unit) -> Unit,
) {
    private val editor = EditorController(MainThread)
    /** Pictures drawn and shared records read off the main thread. */
    private val worker = Worker(MainThread)

    init {
        // Rust's typed notices (a wrong move taken back, solved, a damaged record) in words.
        puzzles.state.observe { s -> (s.notice?.words() ?: s.message)?.let { toast(it); puzzles.clearMessage() } }
    }

    // ---- the editor ------------------------------------------------------------------------

    /** "Set up from here": the editor on the position of the game on screen (Rust's Editor.fromGame). */
    fun editFromGame() {
        val saved = game.saved() ?: return
        if (editor.openSaved(saved)) editorScreen() else editor.state.value.message?.let { toast(it); editor.clearMessage() }
    }

    /** Shares the PGN of a networked game ([MatchRecords.pgn]) through the share sheet. */
    fun shareMatch(saved: ByteArray, s: org.banco.MatchState) {
        val kind = s.kind ?: return
        val today = LocalDate.now()
        val pgn = runCatching { MatchRecords.pgn(saved, s, settings().playerName, today) }.getOrElse { toast(it.message ?: "$it"); return }
        val send = Intent(Intent.ACTION_SEND).apply {
            type = "text/plain"
            putExtra(Intent.EXTRA_SUBJECT, GameShare.fileName(kind, today))
            putExtra(Intent.EXTRA_TEXT, pgn)
        }
        activity.startActivity(Intent.createChooser(send, "Share the game"))
    }

    /** Asks which game, then opens the editor on its start position. */
    fun showEditor() {
        val games = EditorController.games()
        AlertDialog.Builder(activity).setTitle("Set up a position").setItems(games.map { it.label }.toTypedArray()) { _, i ->
            if (editor.open(games[i])) editorScreen()
        }.show()
    }

    private fun editorScreen() {
        val grid = GridLayout(activity)
        val palette = LinearLayout(activity)
        val problems = text("", 14f)
        val side = button("") {}
        val col = column()
        col.addView(HorizontalScrollView(activity).apply { addView(palette) })
        col.addView(grid)
        col.addView(problems)
        col.addView(row(side, button("Flip") { editor.flip() }, button("Empty") { editor.clear() }, button("Start") { editor.resetToStart() }))
        col.addView(row(
            button("Solve") { editor.solve() },
            button("Play from here") { if (editor.playFromHere(game, settings())) showGame { } },
            button("Picture") { editor.pictureLater(done = ::sharePicture) },
        ))
        // Chess: castling rights and the en-passant square (Rust checks them).
        val chessRow = row(button("Castling…") { askCastling() }, button("En passant…") { askEnPassant() })
        col.addView(chessRow)
        // Jieqi: each side's pool of hidden pieces (Rust's, from the board and the pieces marked
        // captured) and a − / + counter per kind for its pieces captured face up.
        val jieqiRows = column()
        col.addView(jieqiRows)
        val stop = editor.state.observe { s ->
            s.message?.let { toast(it); editor.clearMessage() }
            val v = s.view ?: return@observe
            grid.removeAllViews()
            grid.columnCount = v.width.toInt()
            for (c in v.cells) {
                grid.addView(TextView(activity).apply {
                    text = c.piece?.glyph ?: "·"
                    textSize = 22f
                    gravity = Gravity.CENTER
                    minWidth = 80
                    setTextColor(if (c.piece?.color == Color.RED) AndroidColor.rgb(0xB0, 0x10, 0x10) else AndroidColor.BLACK)
                    setBackgroundColor(if (c.problem) AndroidColor.rgb(0xFF, 0xC0, 0xC0) else if (c.dark) AndroidColor.rgb(0xB5, 0x88, 0x63) else AndroidColor.rgb(0xEE, 0xC9, 0x8A))
                    setOnClickListener { editor.tap(c.column.toInt(), c.row.toInt()) }
                })
            }
            palette.removeAllViews()
            palette.addView(button(if (s.brush == null) "[✕]" else "✕") { editor.chooseBrush(null) })
            for (p in v.palette) {
                palette.addView(button(if (p == s.brush) "[${p.glyph}]" else p.glyph) { editor.chooseBrush(p) }.apply {
                    // Jieqi's two face-down pieces share a glyph: the colour tells them apart, as on the board.
                    setTextColor(if (p.color == Color.RED) AndroidColor.rgb(0xB0, 0x10, 0x10) else AndroidColor.BLACK)
                })
            }
            chessRow.visibility = if (v.kind == GameKind.CHESS) View.VISIBLE else View.GONE
            jieqiRows.removeAllViews()
            for (color in listOf(Color.RED, Color.BLACK)) {
                val pool = s.pool(color) ?: continue
                jieqiRows.addView(text(pool.text, 14f))
                val counters = LinearLayout(activity)
                for (counter in s.captured(color)) {
                    counters.addView(button("−") { editor.changeCaptured(counter, -1) })
                    counters.addView(text("${counter.piece.glyph} ${counter.count}", 16f))
                    counters.addView(button("+") { editor.changeCaptured(counter, 1) })
                }
                jieqiRows.addView(text("Captured face up:", 14f))
                jieqiRows.addView(HorizontalScrollView(activity).apply { addView(counters) })
            }
            side.text = "${org.banco.colorName(v.kind, v.sideToMove)} to move"
            side.setOnClickListener { editor.setSideToMove(if (v.sideToMove == Color.RED) Color.BLACK else Color.RED) }
            problems.text = when {
                s.solving -> "Looking for a mate…"
                s.solution?.mate != null -> "Mate in ${s.solution!!.mate}: ${s.solution!!.line.joinToString(" ")}"
                s.solution != null -> "No mate found" + if (s.solution!!.aborted) " (the search ran out of time)" else ""
                v.problems.isEmpty() -> "The position can be played."
                else -> v.problems.joinToString("\n") { "• ${it.text}" }
            }
        }
        setScreen(col) { stop(); editor.close() }
    }

    /** The four chess castling rights as checkboxes; each change goes to Rust at once. */
    private fun askCastling() {
        val c = editor.state.value.view?.castling ?: return
        val rights = listOf(Color.RED to true, Color.RED to false, Color.BLACK to true, Color.BLACK to false)
        val labels = arrayOf("White O-O", "White O-O-O", "Black O-O", "Black O-O-O")
        val checked = booleanArrayOf(c.whiteKingSide, c.whiteQueenSide, c.blackKingSide, c.blackQueenSide)
        AlertDialog.Builder(activity).setTitle("Castling").setMultiChoiceItems(labels, checked) { _, i, on ->
            editor.setCastling(rights[i].first, rights[i].second, on)
        }.setPositiveButton("Done", null).show()
    }

    /** The en-passant square ("e3"), empty for none. */
    private fun askEnPassant() {
        val v = editor.state.value.view ?: return
        val input = android.widget.EditText(activity).apply {
            hint = "e3 (empty: none)"
            setText(v.enPassant?.let { sq -> v.cells.firstOrNull { it.square == sq }?.name } ?: "")
        }
        AlertDialog.Builder(activity).setTitle("En passant square").setView(input)
            .setPositiveButton("Set") { _, _ -> editor.setEnPassant(input.text.toString()) }
            .setNegativeButton("Cancel", null).show()
    }

    // ---- puzzles ---------------------------------------------------------------------------

    /** The game (Rust's collections: xiangqi, chess), then its tiers with the player's progress, then a tier's puzzles. */
    fun showPuzzles() {
        val games = puzzles.games()
        if (games.size == 1) return showPuzzles(games[0])
        AlertDialog.Builder(activity).setTitle("Puzzles").setItems(games.map { it.label }.toTypedArray()) { _, i ->
            showPuzzles(games[i])
        }.show()
    }

    private fun showPuzzles(kind: GameKind) {
        val tiers = puzzles.tiers(kind)
        val names = tiers.map { "${it.info.name.replaceFirstChar(Char::uppercase)}: ${it.solved}/${it.info.count} solved" }
        AlertDialog.Builder(activity).setTitle("${kind.label} puzzles").setItems((names + "Next unsolved").toTypedArray()) { _, i ->
            if (i == tiers.size) {
                showGame { puzzles.startNext(settings(), kind) }
            } else {
                val list = puzzles.puzzles(tiers[i].info.tier, kind)
                val labels = list.map { (p, r) -> (if (r.solved) "✓ " else "") + p.puzzle.name }
                AlertDialog.Builder(activity).setTitle(names[i]).setItems(labels.toTypedArray()) { _, j ->
                    showGame { puzzles.start(list[j].first.id, settings()) }
                }.show()
            }
        }.show()
    }

    // ---- sharing ---------------------------------------------------------------------------

    /** The game on screen as PGN through the share sheet. */
    fun shareGame() {
        val vs = game.state.value.vs ?: return
        val saved = game.saved() ?: return
        val today = LocalDate.now()
        val pgn = runCatching { GameShare.pgn(saved, vs, settings().playerName, today) }.getOrElse { toast(it.message ?: "$it"); return }
        val send = Intent(Intent.ACTION_SEND).apply {
            type = "text/plain"
            putExtra(Intent.EXTRA_SUBJECT, GameShare.fileName(vs.kind, today))
            putExtra(Intent.EXTRA_TEXT, pgn)
        }
        activity.startActivity(Intent.createChooser(send, "Share the game"))
    }

    /** A picture of the position on screen through the share sheet (its PNG drawn off the main thread). */
    fun sharePosition() {
        val vs = game.state.value.vs ?: return
        GameShare.pictureLater(worker, vs) { r -> r.onSuccess(::sharePicture).onFailure { toast(it.message ?: "$it") } }
    }

    /** Opens a game shared with Banco (a PGN text or file, read and parsed off the main thread); true if the intent held one. */
    fun open(intent: Intent?): Boolean {
        val text = if (intent?.action == Intent.ACTION_SEND) intent.getStringExtra(Intent.EXTRA_TEXT) else null
        val uri = if (intent?.action == Intent.ACTION_VIEW) intent.data else null
        if (text == null && uri == null) return false
        val read = {
            text ?: uri?.let { u -> activity.contentResolver.openInputStream(u)?.use { it.readBytes().toString(Charsets.UTF_8) } }
                ?: throw IllegalArgumentException("The shared file could not be read.")
        }
        GameShare.openLater(worker, read) { r -> r.fold(
            onSuccess = { g ->
                showGame { c -> c.openSaved(g.saved, settings().copy(game = g.kind, color = g.sideToMove)) }
                toast("${g.kind.label} game opened: ${g.plies} moves")
            },
            onFailure = { toast(it.message ?: "$it") },
        ) }
        return true
    }

    private fun sharePicture(p: Picture) {
        val dir = File(activity.cacheDir, "shared").apply { mkdirs() }
        val file = File(dir, p.fileName).apply { writeBytes(p.png) }
        val uri = FileProvider.getUriForFile(activity, "${activity.packageName}.files", file)
        val send = Intent(Intent.ACTION_SEND).apply {
            type = "image/png"
            putExtra(Intent.EXTRA_STREAM, uri)
            addFlags(Intent.FLAG_GRANT_READ_URI_PERMISSION)
        }
        activity.startActivity(Intent.createChooser(send, "Share the position"))
    }

    // ---- helpers ---------------------------------------------------------------------------

    private fun column() = LinearLayout(activity).apply { orientation = LinearLayout.VERTICAL }

    private fun row(vararg views: View) = LinearLayout(activity).apply {
        views.forEach { addView(it, LinearLayout.LayoutParams(0, LinearLayout.LayoutParams.WRAP_CONTENT, 1f)) }
    }

    private fun button(label: String, onClick: () -> Unit) = Button(activity).apply {
        text = label
        setOnClickListener { onClick() }
    }

    private fun text(s: String, sp: Float) = TextView(activity).apply { text = s; textSize = sp }

    private fun toast(s: String) = Toast.makeText(activity, s, Toast.LENGTH_LONG).show()
}
