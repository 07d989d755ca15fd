// The whole app in one activity with views built in code: home (play the computer, continue,
// play nearby, puzzles, settings), the game against the AI, the nearby-players list, and the
// networked match with its dialogs (pairing code, proposal, undo and draw offers, result).
// All logic lives in android-shell/core (tested on the JVM); this file only shows its state
// and forwards taps. Core state changes arrive on the main thread (MainThread dispatcher).
package org.banco.app

import android.Manifest
import android.app.AlertDialog
import android.content.pm.PackageManager
import android.graphics.Typeface
import android.os.Build
import android.os.Bundle
import android.text.InputType
import android.view.Gravity
import android.view.View
import android.view.ViewGroup.LayoutParams.MATCH_PARENT
import android.view.ViewGroup.LayoutParams.WRAP_CONTENT
import android.widget.ArrayAdapter
import android.widget.Button
import android.widget.CheckBox
import android.widget.EditText
import android.widget.FrameLayout
import android.widget.LinearLayout
import android.widget.ListView
import android.widget.RadioButton
import android.widget.RadioGroup
import android.widget.SeekBar
import android.widget.TextView
import android.widget.Toast
import androidx.activity.ComponentActivity
import androidx.activity.OnBackPressedCallback
import androidx.activity.result.contract.ActivityResultContracts
import org.banco.BancoException
import org.banco.Color
import org.banco.Engine
import org.banco.Lobby
import org.banco.LobbyPeer
import org.banco.shell.GameController
import org.banco.shell.LobbyModel
import org.banco.shell.MatchController
import org.banco.shell.MatchController.Phase
import org.banco.shell.Puzzles
import org.banco.shell.RulesPreset
import org.banco.shell.Settings
import org.banco.shell.SoundPlayer

class MainActivity : ComponentActivity() {
    private lateinit var store: PrefsStore
    private lateinit var settings: Settings
    private lateinit var root: FrameLayout
    private val sound by lazy { ToneSound() }
    private val engine by lazy { Engine(16u) }
    private val gameController by lazy { GameController(MainThread, engine, store, sound) }

    private var lobby: LobbyModel? = null
    private var match: MatchController? = null
    /** Stops observing the screen's model when the screen changes. */
    private var unobserve: (() -> Unit)? = null
    private var onHome = true
    private var showingGame = false

    private val nearbyPermissions = registerForActivityResult(ActivityResultContracts.RequestMultiplePermissions()) { grants ->
        if (grants.values.all { it }) {
            showLobby()
        } else {
            toast("Finding nearby players needs the nearby-devices permission")
        }
    }

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        store = PrefsStore(this)
        settings = Settings.load(store)
        root = FrameLayout(this)
        setContentView(root)
        onBackPressedDispatcher.addCallback(this, object : OnBackPressedCallback(true) {
            override fun handleOnBackPressed() {
                if (onHome) finish() else showHome()
            }
        })
        if ((application as BancoApplication).nativeReady) {
            showHome()
        } else {
            setScreen(text("The Banco library (libbanco_ffi.so) is missing from this build. See android-shell/README.md.", 18f), home = true)
        }
    }

    override fun onStart() {
        super.onStart()
        if (showingGame) gameController.resume()
    }

    override fun onStop() {
        super.onStop()
        // Leaving the app: the AI stops (the game is saved after every move); a match keeps its
        // connection so that a short switch away does not drop it.
        if ((application as BancoApplication).nativeReady) gameController.close()
    }

    override fun onDestroy() {
        leaveScreens()
        if ((application as BancoApplication).nativeReady) {
            gameController.close()
            engine.close()
        }
        sound.release()
        super.onDestroy()
    }

    // ---- screens -------------------------------------------------------------------------

    private fun showHome() {
        leaveScreens()
        val col = column()
        col.gravity = Gravity.CENTER_HORIZONTAL
        col.addView(text("象棋 Banco", 32f).apply { setTypeface(typeface, Typeface.BOLD); gravity = Gravity.CENTER })
        col.addView(button("Play the computer") { showGame { it.newGame(settings) } })
        if (gameController.canContinue()) {
            col.addView(button("Continue") { showGame { c -> if (!c.continueGame(settings)) c.newGame(settings) } })
        }
        col.addView(button("Play nearby") { askNearbyPermissions() })
        col.addView(button("Puzzles") { choosePuzzle() })
        col.addView(button("Settings") { editSettings() })
        setScreen(col, home = true)
    }

    private fun showGame(start: (GameController) -> Unit) {
        leaveScreens()
        val c = gameController
        val status = text("", 18f)
        val board = BoardView(this).apply { onSquareTapped = { c.tap(it) } }
        val moves = text("", 14f)
        val undo = button("Undo") { c.undo() }
        val redo = button("Redo") { c.redo() }
        val hint = button("Hint") { c.hint() }
        val buttons = row(undo, redo, hint, button("New") { c.newGame(settings) })
        val col = column()
        col.addView(status)
        col.addView(board, LinearLayout.LayoutParams(MATCH_PARENT, 0, 1f))
        col.addView(moves)
        col.addView(buttons)
        setScreen(col, home = false)
        showingGame = true
        c.setSound(settings.sound)
        start(c)
        var shownResult: String? = null
        unobserve = c.state.observe { s ->
            board.board = s.board
            status.text = when {
                s.result != null -> s.result
                s.thinking -> "The computer is thinking…"
                s.hinting -> "Looking for a hint…"
                s.status?.inCheck == true -> "Check! Your move"
                else -> "Your move (level ${s.level})"
            }
            moves.text = s.moves.chunked(2).mapIndexed { i, p -> "${i + 1}. ${p.joinToString(" ")}" }.joinToString("   ")
            undo.isEnabled = s.canUndo
            redo.isEnabled = s.canRedo
            hint.isEnabled = s.myTurn && !s.hinting
            s.message?.let { toast(it); c.clearMessage() }
            if (s.result != null && s.result != shownResult) {
                shownResult = s.result
                AlertDialog.Builder(this).setTitle("Game over").setMessage(s.result)
                    .setPositiveButton("New game") { _, _ -> c.newGame(settings) }
                    .setNegativeButton("Close", null).show()
            }
        }
    }

    private fun choosePuzzle() {
        val names = Puzzles.all.map { "${it.name} (mate in ${it.mateIn})" }.toTypedArray()
        AlertDialog.Builder(this).setTitle("Puzzles").setItems(names) { _, i ->
            val p = Puzzles.all[i]
            // The player moves first and mates; the computer defends at full strength.
            val side = if (p.fen.split(' ').getOrNull(1) == "b") Color.BLACK else Color.RED
            showGame { it.newGame(settings.copy(color = side, level = 10), fen = p.fen) }
        }.show()
    }

    private fun askNearbyPermissions() {
        val wanted = buildList {
            if (Build.VERSION.SDK_INT >= 33) add(Manifest.permission.NEARBY_WIFI_DEVICES) else add(Manifest.permission.ACCESS_FINE_LOCATION)
            if (Build.VERSION.SDK_INT >= 31) {
                add(Manifest.permission.BLUETOOTH_SCAN)
                add(Manifest.permission.BLUETOOTH_CONNECT)
                add(Manifest.permission.BLUETOOTH_ADVERTISE)
            }
        }
        val missing = wanted.filter { checkSelfPermission(it) != PackageManager.PERMISSION_GRANTED }
        if (missing.isEmpty()) showLobby() else nearbyPermissions.launch(missing.toTypedArray())
    }

    private fun showLobby() {
        leaveScreens()
        val model = LobbyModel(MainThread, WifiMulticastGuard(this))
        lobby = model
        val status = text("Looking for players on this Wi-Fi…", 16f)
        val adapter = ArrayAdapter<String>(this, android.R.layout.simple_list_item_1)
        var peers: List<LobbyPeer> = emptyList()
        val list = ListView(this).apply {
            this.adapter = adapter
            setOnItemClickListener { _, _, i, _ -> peers.getOrNull(i)?.let { joinMatch { model.join(it, settings, matchSound()) } } }
        }
        val col = column()
        col.addView(status)
        col.addView(list, LinearLayout.LayoutParams(MATCH_PARENT, 0, 1f))
        col.addView(row(button("Host a game") { hostMatch() }, button("Join by address") { joinByAddress() }))
        setScreen(col, home = false)
        model.start { Lobby(emptyList()) }
        unobserve = model.state.observe { s ->
            peers = s.peers
            adapter.clear()
            adapter.addAll(s.peers.map { p -> "${p.name}  (${p.addresses.firstOrNull() ?: p.host})" })
            status.text = s.error ?: if (s.peers.isEmpty()) "Looking for players on this Wi-Fi…" else "Tap a player to join"
        }
    }

    private fun hostMatch() {
        // The usual port, or any free one if it is taken.
        joinMatch {
            try {
                MatchController.host(MainThread, settings, "0.0.0.0:7368", advertise = true, sound = matchSound())
            } catch (e: BancoException.Network) {
                MatchController.host(MainThread, settings, "0.0.0.0:0", advertise = true, sound = matchSound())
            }
        }
    }

    private fun joinByAddress() {
        val input = EditText(this).apply { hint = "192.168.1.20:7368"; inputType = InputType.TYPE_CLASS_TEXT }
        AlertDialog.Builder(this).setTitle("Join by address").setView(input)
            .setPositiveButton("Join") { _, _ ->
                joinMatch { MatchController.join(MainThread, settings.playerName, input.text.toString().trim(), matchSound()) }
            }
            .setNegativeButton("Cancel", null).show()
    }

    private fun joinMatch(open: () -> MatchController) {
        val c = try {
            open()
        } catch (e: BancoException) {
            toast(e.message ?: "Could not start the match")
            return
        }
        showMatch(c)
    }

    private fun showMatch(c: MatchController) {
        leaveScreens()
        match = c
        val banner = text("", 16f).apply {
            setBackgroundColor(android.graphics.Color.rgb(0xFF, 0xE0, 0x80)); visibility = View.GONE
        }
        val status = text("", 18f)
        val board = BoardView(this).apply { onSquareTapped = { c.tap(it) } }
        val draw = button("Offer draw") { c.offerDraw() }
        val undo = button("Ask undo") { c.requestUndo() }
        val resign = button("Resign") {
            AlertDialog.Builder(this).setMessage("Resign this game?")
                .setPositiveButton("Resign") { _, _ -> c.resign() }.setNegativeButton("Cancel", null).show()
        }
        val col = column()
        col.addView(banner)
        col.addView(status)
        col.addView(board, LinearLayout.LayoutParams(MATCH_PARENT, 0, 1f))
        col.addView(row(draw, undo, resign, button("Leave") { showHome() }))
        setScreen(col, home = false)

        // Each question is asked once per occurrence.
        var askedCode: String? = null
        var askedProposal = false
        var askedUndo: UInt? = null
        var askedDraw = false
        var shownResult: String? = null
        unobserve = c.state.observe { s ->
            board.board = s.board
            banner.text = s.banner
            banner.visibility = if (s.banner != null) View.VISIBLE else View.GONE
            status.text = when (s.phase) {
                Phase.CONNECTING -> "Connecting…"
                Phase.LISTENING -> "Waiting for a player (${s.address})…"
                Phase.VERIFY -> "Compare the code with ${s.peerName}"
                Phase.WAITING -> "Waiting for ${s.peerName ?: "the other player"}…"
                Phase.PROPOSED -> "${s.peerName} proposes a game"
                Phase.PLAYING -> if (s.myTurn) "Your move" else "${s.peerName}'s move"
                Phase.OVER -> s.result
                Phase.CLOSED -> "The match is over: ${s.closedReason}"
            }
            val playing = s.phase == Phase.PLAYING
            draw.isEnabled = playing
            undo.isEnabled = playing && s.moves.isNotEmpty()
            resign.isEnabled = playing
            s.notice?.let { toast(it); c.clearNotice() }
            if (s.phase == Phase.VERIFY && s.code != null && s.code != askedCode) {
                askedCode = s.code
                val code = s.code!!.chunked(3).joinToString(" ")
                AlertDialog.Builder(this).setTitle("Pair with ${s.peerName}")
                    .setMessage("Does the other phone show\n\n$code\n\nThe codes must match exactly.")
                    .setCancelable(false)
                    .setPositiveButton("Same code") { _, _ -> c.confirmCode() }
                    .setNegativeButton("Different") { _, _ -> c.rejectCode() }.show()
            }
            if (s.phase == Phase.PROPOSED && !askedProposal) {
                askedProposal = true
                val colour = if (s.myColor == Color.RED) "Red (you move first)" else "Black"
                val rules = if (s.rules?.repetition == org.banco.RepetitionRule.ASIAN) RulesPreset.ASIAN.label else RulesPreset.CASUAL.label
                AlertDialog.Builder(this).setTitle("${s.peerName} proposes a game")
                    .setMessage("You play $colour.\nRules: $rules")
                    .setCancelable(false)
                    .setPositiveButton("Play") { _, _ -> c.acceptProposal() }
                    .setNegativeButton("Decline") { _, _ -> c.declineProposal() }.show()
            }
            if (s.undoRequest != null && s.undoRequest != askedUndo) {
                askedUndo = s.undoRequest
                AlertDialog.Builder(this).setMessage("${s.peerName} asks to take back the last move.")
                    .setCancelable(false)
                    .setPositiveButton("Allow") { _, _ -> c.replyUndo(true) }
                    .setNegativeButton("Refuse") { _, _ -> c.replyUndo(false) }.show()
            } else if (s.undoRequest == null) {
                askedUndo = null
            }
            if (s.drawOffered && !askedDraw) {
                askedDraw = true
                AlertDialog.Builder(this).setMessage("${s.peerName} offers a draw.")
                    .setCancelable(false)
                    .setPositiveButton("Accept") { _, _ -> c.replyDraw(true) }
                    .setNegativeButton("Decline") { _, _ -> c.replyDraw(false) }.show()
            } else if (!s.drawOffered) {
                askedDraw = false
            }
            if (s.phase == Phase.OVER && s.result != shownResult) {
                shownResult = s.result
                AlertDialog.Builder(this).setTitle("Game over").setMessage(s.result)
                    .setPositiveButton("OK", null).show()
            }
        }
    }

    private fun editSettings() {
        val name = EditText(this).apply { setText(settings.playerName); hint = "Your name" }
        val levelText = text("Computer level: ${settings.level}", 16f)
        val level = SeekBar(this).apply {
            max = 9
            progress = settings.level - 1
            setOnSeekBarChangeListener(object : SeekBar.OnSeekBarChangeListener {
                override fun onProgressChanged(bar: SeekBar, p: Int, fromUser: Boolean) {
                    levelText.text = "Computer level: ${p + 1}"
                }
                override fun onStartTrackingTouch(bar: SeekBar) {}
                override fun onStopTrackingTouch(bar: SeekBar) {}
            })
        }
        val red = RadioButton(this).apply { text = "Play Red (move first)"; id = View.generateViewId() }
        val black = RadioButton(this).apply { text = "Play Black"; id = View.generateViewId() }
        val colours = RadioGroup(this).apply { addView(red); addView(black); check(if (settings.color == Color.RED) red.id else black.id) }
        val presetButtons = RulesPreset.entries.map { p -> RadioButton(this).apply { text = p.label; id = View.generateViewId() } }
        val presets = RadioGroup(this).apply {
            presetButtons.forEach { addView(it) }
            check(presetButtons[settings.rules.ordinal].id)
        }
        val soundBox = CheckBox(this).apply { text = "Sound"; isChecked = settings.sound }
        val col = column().apply {
            listOf(name, levelText, level, colours, presets, soundBox).forEach { addView(it) }
        }
        AlertDialog.Builder(this).setTitle("Settings").setView(col)
            .setPositiveButton("Save") { _, _ ->
                settings = Settings(
                    level = level.progress + 1,
                    color = if (colours.checkedRadioButtonId == black.id) Color.BLACK else Color.RED,
                    rules = RulesPreset.entries[presetButtons.indexOfFirst { it.id == presets.checkedRadioButtonId }.coerceAtLeast(0)],
                    sound = soundBox.isChecked,
                    playerName = name.text.toString().trim().take(32).ifEmpty { "Player" },
                )
                settings.save(store)
                gameController.setSound(settings.sound)
            }
            .setNegativeButton("Cancel", null).show()
    }

    // ---- helpers -------------------------------------------------------------------------

    private fun matchSound(): SoundPlayer = if (settings.sound) sound else SoundPlayer.SILENT

    /** Leaves whatever screen is shown: stops observing, the AI, discovery, and the match. */
    private fun leaveScreens() {
        unobserve?.invoke()
        unobserve = null
        showingGame = false
        if ((application as BancoApplication).nativeReady) gameController.close()
        lobby?.stop()
        lobby = null
        match?.leave()
        match = null
    }

    private fun setScreen(view: View, home: Boolean) {
        onHome = home
        root.removeAllViews()
        root.addView(view, FrameLayout.LayoutParams(MATCH_PARENT, MATCH_PARENT))
    }

    private fun column() = LinearLayout(this).apply {
        orientation = LinearLayout.VERTICAL
        val pad = (16 * resources.displayMetrics.density).toInt()
        setPadding(pad, pad, pad, pad)
    }

    private fun row(vararg views: View) = LinearLayout(this).apply {
        orientation = LinearLayout.HORIZONTAL
        views.forEach { addView(it, LinearLayout.LayoutParams(0, WRAP_CONTENT, 1f)) }
    }

    private fun button(label: String, onClick: () -> Unit) = Button(this).apply {
        text = label
        setOnClickListener { onClick() }
    }

    private fun text(s: String, sp: Float) = TextView(this).apply {
        text = s
        textSize = sp
    }

    private fun toast(s: String) = Toast.makeText(this, s, Toast.LENGTH_SHORT).show()
}
