// The whole app in one activity with views built in code: home (each board game against the
// computer, continue, set up a position, puzzles, play nearby, settings), the game against the
// computer (with jieqi's pools above and below the board), the
// nearby-players list, and the networked match with its dialogs (pairing code, proposal,
// undo and draw offers, promotion, result). Rust decides everything (through the core
// controllers); this file shows their state and forwards taps. State changes arrive on the
// main thread (MainThread dispatcher).
package org.banco.app

import android.Manifest
import android.app.AlertDialog
import android.content.Intent
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
import android.widget.ScrollView
import android.widget.SeekBar
import android.widget.TextView
import android.widget.Toast
import androidx.activity.ComponentActivity
import androidx.activity.OnBackPressedCallback
import androidx.activity.result.contract.ActivityResultContracts
import org.banco.BancoException
import org.banco.Color
import org.banco.GameKind
import org.banco.BlePermission
import org.banco.NearbyLobby
import org.banco.NearbyPlayer
import org.banco.MatchPhase
import org.banco.PieceKind
import org.banco.PromotionChoice
import org.banco.boardGames
import org.banco.clockPresets
import org.banco.offerClockText
import org.banco.colorName
import org.banco.playerDisplayName
import org.banco.linesColorName
import org.banco.shell.GameController
import org.banco.shell.LinesController
import org.banco.shell.spotBalls
import org.banco.shell.BleGate
import org.banco.shell.LobbyModel
import org.banco.shell.NearbyBluetooth
import org.banco.shell.PermissionSource
import org.banco.shell.MatchController
import org.banco.shell.MatchRecords
import org.banco.shell.PuzzleController
import org.banco.shell.computerLevels
import org.banco.shell.offeredPresets
import org.banco.shell.Settings
import org.banco.shell.trustKeeper
import org.banco.shell.SoundPlayer
import org.banco.shell.label
import org.banco.shell.poolShelves

class MainActivity : ComponentActivity() {
    private lateinit var store: PrefsStore
    private lateinit var settings: Settings
    private lateinit var root: FrameLayout
    private val sound by lazy { ToneSound() }
    private val gameController by lazy { GameController(MainThread, store, sound) }
    /** The puzzle on the game screen, if any: its "Next puzzle" replaces the "New" of a game. */
    private val puzzleController by lazy { PuzzleController(gameController, store) }
    private val records by lazy {
        RecordsScreens(this, gameController, puzzleController, { settings },
            { v, leave -> leaveScreens(); setScreen(v, home = false); unobserve = leave }, ::showGame)
    }
    private val linesController by lazy { LinesController(MainThread, store) }
    /** The Wi-Fi multicast lock of a match on screen (the lobby holds its own while browsing). */
    private val matchMulticast by lazy { WifiMulticastGuard(this) }
    /**
     * The device's identity and the players whose code was confirmed, between matches: in
     * their own preferences file, kept out of backups (res/xml backup rules); moved there
     * once from the general one.
     */
    private val trust by lazy { trustKeeper(PrefsStore(this, PrefsStore.TRUST), legacy = store) }

    private var lobby: LobbyModel? = null
    /** Bluetooth's permissions and adapter state (the words are Rust's). */
    private val bleGate by lazy { BleGate(AndroidBlePermissions(), MainThread) }
    private val adapterWatch by lazy {
        AdapterWatch(this) {
            bleGate.adapterChanged(it)
            // Bluetooth turned on or off: the lobby checks again (discovery over it starts or stops).
            MainThread.post { recheckLobby() }
        }
    }
    /** How the lobby on screen opens its NearbyLobby (for [recheckLobby]). */
    private var lobbyOpen: ((org.banco.BleGuest?) -> NearbyLobby)? = null
    private var match: MatchController? = null
    /** A join by address still resolving: cancelled when the player leaves the screen meanwhile. */
    private var pendingJoin: MatchController.PendingJoin? = null
    /** Stops observing the screen's model when the screen changes. */
    private var unobserve: (() -> Unit)? = null
    private var onHome = true
    private var showingGame = false
    /** The Lines game against the clock is on screen (its clock stops in the background). */
    private var showingLines = false

    private val nearbyPermissions = registerForActivityResult(ActivityResultContracts.RequestMultiplePermissions()) { grants ->
        // The lobby opens whatever was refused: without Bluetooth it works on the LAN alone
        // and says why Bluetooth is not used (with a tap to fix it), as the README promises.
        showLobby()
        if (!grants.values.all { it }) toast("Some nearby-device permissions were refused: players are found on this network only")
    }

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        store = PrefsStore(this)
        root = FrameLayout(this)
        setContentView(root)
        onBackPressedDispatcher.addCallback(this, object : OnBackPressedCallback(true) {
            override fun handleOnBackPressed() {
                // Back from a match goes the way its Leave button does (asked while a game
                // or race is in progress, which leaving resigns).
                val m = match
                if (onHome) finish() else if (m != null) leaveMatch(m) else showHome()
            }
        })
        if ((application as BancoApplication).nativeReady) {
            settings = Settings.load(store)
            showHome()
            // Only a new launch opens its file: a recreated Activity (after the process was
            // killed) would open it again over the game played since.
            if (savedInstanceState == null) records.open(intent)
        } else {
            setScreen(text("The Banco library (libbanco_ffi.so) is missing from this build. See android-shell/README.md.", 18f), home = true)
        }
    }

    override fun onNewIntent(intent: Intent) {
        super.onNewIntent(intent)
        if ((application as BancoApplication).nativeReady) records.open(intent)
    }

    override fun onStart() {
        super.onStart()
        // Back from the system's Bluetooth screens (turn on, app settings): the lobby checks again.
        recheckLobby()
        if (showingGame) gameController.resume()
        if (showingLines) linesController.resume()
    }

    override fun onStop() {
        super.onStop()
        // Away from the app the computer stops (the game is saved) and the Lines clock
        // stands still (a call must not lose the game); a match keeps its connection so that
        // a short switch away does not drop it, and a race's clock runs on (the other
        // player's does too).
        if (showingGame) gameController.pause()
        if (showingLines) linesController.pause()
    }

    override fun onDestroy() {
        leaveScreens()
        adapterWatch.unregister()
        sound.release()
        super.onDestroy()
    }

    // ---- screens -------------------------------------------------------------------------

    private fun showHome() {
        leaveScreens()
        val col = column()
        col.gravity = Gravity.CENTER_HORIZONTAL
        col.addView(text("Banco", 32f).apply { setTypeface(typeface, Typeface.BOLD); gravity = Gravity.CENTER })
        for (kind in boardGames()) {
            col.addView(button("Play ${kind.label}") {
                settings = settings.copy(game = kind).also { it.save(store) }
                showGame { it.newGame(settings) }
            })
        }
        if (gameController.canContinue()) {
            col.addView(button("Continue") { showGame { c -> if (!c.continueGame(settings)) c.newGame(settings) } })
        }
        col.addView(button("Set up a position") { records.showEditor() })
        col.addView(button("Saved matches") { showSavedMatches() })
        col.addView(button("Puzzles") { records.showPuzzles() })
        col.addView(button("Lines") { showLines() })
        col.addView(button("Play nearby") { askNearbyPermissions() })
        col.addView(button("Settings") { editSettings() })
        setScreen(col, home = true)
    }

    private fun showGame(start: (GameController) -> Unit) {
        leaveScreens()
        val c = gameController
        val status = text("", 18f)
        // The clocks as Rust shows them (the controller reads them again when their text changes).
        val clocks = text("", 18f).apply { visibility = View.GONE }
        val board = BoardCanvas(this).apply { onCellTapped = { col, row -> c.tap(col, row) } }
        val (topPool, bottomPool) = text("", 14f) to text("", 14f)
        val moves = MoveList()
        // Jieqi: the last reveal in Rust's words ("cannon h2 revealed: rook"), until the next move.
        val reveal = text("", 16f).apply { visibility = View.GONE }
        val undo = button("Undo") { c.undo() }
        val redo = button("Redo") { c.redo() }
        val hint = button("Hint") { c.hint() }
        val draw = button("Claim draw") { c.claimDraw() }
        // Chess (FIDE 9.2.1.1): a draw claimed with a move that completes the fifty moves or
        // repeats the position a third time; Rust lists the moves, Rust plays the one picked.
        val drawWith = button("Claim draw with…") {
            val claims = c.state.value.claimableWith
            AlertDialog.Builder(this).setTitle("Claim a draw with the move")
                .setItems(claims.map { "Claim draw with ${it.mv.text}" }.toTypedArray()) { _, i -> c.claimDrawWith(claims[i]) }
                .setNegativeButton("Cancel", null).show()
        }
        val resign = button("Resign") { confirm("Resign this game?") { c.resign() } }
        // In a puzzle, the next puzzle of its game: never an ordinary game over the game to continue.
        val newGame = { if (puzzleController.playing) puzzleController.next(settings) else c.newGame(settings) }
        val newButton = button("New") { newGame() }
        // The computer's level in this game (Rust keeps it with the game; Settings gives the next game's).
        val level = button("Level") {
            val levels = computerLevels.toList()
            AlertDialog.Builder(this).setTitle("Computer level")
                .setItems(levels.map { "Level $it" }.toTypedArray()) { _, i -> c.setLevel(levels[i]) }.show()
        }
        val col = column()
        col.addView(status)
        col.addView(reveal)
        col.addView(clocks)
        col.addView(topPool)
        col.addView(board, LinearLayout.LayoutParams(MATCH_PARENT, 0, 1f))
        col.addView(bottomPool)
        moves.addTo(col)
        col.addView(row(undo, redo, hint, button("Flip") { c.flip() }))
        col.addView(row(level, draw, resign, newButton))
        col.addView(drawWith)
        col.addView(row(button("Share game") { records.shareGame() }, button("Share picture") { records.sharePosition() }))
        col.addView(button("Set up from here") { records.editFromGame() })
        setScreen(col, home = false)
        showingGame = true
        c.setSound(settings.sound)
        start(c)
        var shownResult: String? = null
        var askedPromotion: PromotionChoice? = null
        unobserve = c.state.observe { s ->
            s.message?.let { toast(it); c.clearMessage() }
            val vs = s.vs ?: return@observe
            board.board = vs.board
            showPools(vs.board, topPool, bottomPool)
            val you = colorName(vs.kind, vs.human)
            status.text = when {
                vs.result != null -> vs.result
                vs.thinking -> "The computer is thinking…"
                vs.hinting -> "Looking for a hint…"
                vs.puzzle != null -> vs.puzzle!!.let { "${it.name}: ${it.goal} · ${it.wrongMoves} wrong, ${it.hintsUsed} hints" }
                vs.inCheck && vs.yourTurn -> "Check! Your move ($you)"
                else -> "Your move ($you, level ${vs.level})"
            }
            moves.show(vs.moveList)
            reveal.text = s.announcement
            reveal.visibility = if (s.announcement != null) View.VISIBLE else View.GONE
            undo.isEnabled = vs.canUndo
            redo.isEnabled = vs.canRedo
            hint.isEnabled = vs.yourTurn && !vs.hinting
            draw.visibility = if (vs.claimableDraw != null) View.VISIBLE else View.GONE
            drawWith.visibility = if (s.claimableWith.isNotEmpty()) View.VISIBLE else View.GONE
            resign.isEnabled = vs.outcome == null && vs.puzzle == null
            newButton.text = if (vs.puzzle != null) "Next puzzle" else "New"
            level.text = "Level ${vs.level}"
            level.visibility = if (vs.puzzle != null) View.GONE else View.VISIBLE
            val ask = s.promotion
            if (ask != null && ask != askedPromotion) {
                askedPromotion = ask
                pickPromotion(vs.kind, vs.human, ask.choices, onPick = c::choosePromotion, onCancel = c::cancelPromotion)
            } else if (ask == null) {
                askedPromotion = null
            }
            if (vs.result != null && vs.result != shownResult) {
                shownResult = vs.result
                AlertDialog.Builder(this).setTitle("Game over").setMessage(vs.result)
                    .setPositiveButton(if (vs.puzzle != null) "Next puzzle" else "New game") { _, _ -> newGame() }
                    .setNegativeButton("Close", null).show()
            }
        }
    }

    /**
     * Lines, solo: a new game as Settings say (start balls, undo, time limit or none, preview),
     * with undo, redo, hints and the best scores.
     */
    private fun showLines() {
        leaveScreens()
        showingLines = true
        val c = linesController
        val status = text("", 18f)
        val next = text("", 16f)
        val board = LinesCanvas(this).apply { onCellTapped = { c.tap(it) } }
        val undo = button("Undo") { c.undo() }
        val redo = button("Redo") { c.redo() }
        val hint = button("Hint") { c.hint() }
        val col = column()
        col.addView(status)
        col.addView(next)
        col.addView(board)
        col.addView(row(undo, redo, hint, button("New") { c.newGame(settings) }))
        col.addView(row(button("Best scores") { showLinesBest(c.state.value) }))
        setScreen(col, home = false)
        c.setHintPlayouts(settings.linesHintPlayouts) // a continued game's hint thinks as chosen too
        if (!c.continueGame()) c.newGame(settings)
        val ticker = object : Runnable {
            override fun run() { c.tick(); board.postDelayed(this, 1000) }
        }
        board.postDelayed(ticker, 1000)
        val stop = c.state.observe { s ->
            s.message?.let { toast(it); c.clearMessage() }
            val v = s.view ?: return@observe
            board.cells = v.cells.map { it.toInt() }
            board.selected = s.selected
            board.reachable = s.reachable.toSet()
            board.spots = v.spotBalls
            board.animate(s.run)
            val clock = s.timeLeftMs?.let { " · ${it / 60_000}:${"%02d".format(it / 1000 % 60)}" } ?: ""
            status.text = when {
                s.timeUp -> "Time! ${v.score} points"
                v.gameOver -> "Board full: ${v.score} points" + (s.rank?.let { " (#${it + 1} best)" } ?: "")
                else -> "${v.score} points · best ${v.bestScore}$clock"
            } + (v.rankingNote?.let { "\n$it" } ?: "")
            next.text = s.hint?.let { "Hint: ${it.text}, ${it.reason}" }
                ?: (if (s.hinting) "Looking for a hint…" else null)
                ?: ("Next: " + v.nextColors.joinToString(" ") { linesColorName(it.toUByte()) ?: "?" })
            undo.isEnabled = s.canUndo
            redo.isEnabled = s.canRedo
            hint.isEnabled = s.canHint
        }
        unobserve = { stop(); board.removeCallbacks(ticker) }
    }

    /** The best-scores table of this game's kind (Rust's rows: rank, score, turns, date; the kind's label in the title), the last game's row marked. */
    private fun showLinesBest(s: LinesController.State) {
        val rows = s.best.map { if (it.rank.toInt() == s.rank) "▶ ${it.text}" else it.text }
        AlertDialog.Builder(this).setTitle(s.view?.bestKind?.label?.let { "Best scores — $it" } ?: "Best scores")
            .setMessage(if (rows.isEmpty()) "No finished game yet." else rows.joinToString("\n"))
            .setPositiveButton("Close", null).show()
    }

    /** The Lines race of match [c]: our board, the opponent's score and balls, time left, the result. */
    private fun showRace(c: MatchController) {
        unobserve?.invoke()
        val status = text("", 18f)
        val board = LinesCanvas(this).apply { onCellTapped = { c.raceTap(it) } }
        // The opponent's board as replayed here, small (no taps), with its score and balls.
        val theirs = LinesCanvas(this)
        val theirsText = text("", 14f)
        val small = (120 * resources.displayMetrics.density).toInt()
        val theirRow = LinearLayout(this).apply {
            orientation = LinearLayout.HORIZONTAL
            gravity = Gravity.CENTER_VERTICAL
            addView(theirs, LinearLayout.LayoutParams(small, small))
            addView(theirsText, LinearLayout.LayoutParams(0, WRAP_CONTENT, 1f).apply { marginStart = small / 8 })
        }
        val col = column()
        col.addView(status)
        col.addView(board)
        col.addView(theirRow)
        val resign = button("Resign") { confirm("Resign the race?") { c.raceResign() } }
        // Once the race is over: the same race anew (Rust's rematch: same options, a new seed),
        // or back to the match screen. (The same match: not left on the way, as leaving the
        // screen would.)
        val again = button("Race again") { c.proposeRematch() }.apply { visibility = View.GONE }
        val back = button("Back to the match") { match = null; showMatch(c) }.apply { visibility = View.GONE }
        col.addView(row(resign, again, back, button("Leave") { leaveMatch(c) }))
        setScreen(col, home = false)
        val ticker = object : Runnable {
            override fun run() { c.tick(); board.postDelayed(this, 1000) }
        }
        board.postDelayed(ticker, 1000)
        val stopRun = c.raceRun.observe { board.animate(it) }
        val stopPick = c.raceSelected.observe { board.selected = it }
        var askedProposal: ULong? = null
        var proposalDialog: AlertDialog? = null
        val stop = c.state.observe { st ->
            st.notice?.let { toast(it); c.clearNotice() }
            // Another proposal (the race again, or a game) is answered here too; a replaced one
            // is asked anew (its own number).
            val m = st.match
            if (m != null && m.phase == MatchPhase.PROPOSED && m.proposalId != askedProposal) {
                askedProposal = m.proposalId
                proposalDialog?.dismiss()
                proposalDialog = askProposal(c, m)
            } else if (m?.phase != MatchPhase.PROPOSED) {
                askedProposal = null
            }
            // A board game accepted after the race: its own screen, on the same match.
            val r = st.race ?: run { match = null; showMatch(c); return@observe }
            r.board?.let { b -> board.cells = b.cells.map { it.toInt() }; board.spots = b.spotBalls }
            r.opponent?.let { o ->
                theirs.cells = o.cells.map { it.toInt() }
                theirs.spots = o.spotBalls
                theirsText.text = "${st.match?.peerName?.let { "$it's" } ?: "Their"} board: ${o.score} points · ${o.balls} balls"
            }
            val clock = r.timeLeftMs?.let { " · ${it / 60_000}:${"%02d".format(it / 1000 % 60)}" } ?: ""
            resign.isEnabled = r.outcome == null
            again.visibility = if (r.outcome != null) View.VISIBLE else View.GONE
            back.visibility = if (r.outcome != null) View.VISIBLE else View.GONE
            status.text = r.outcome?.text ?: (st.match?.banner
                ?: "You ${r.score} · them ${r.opponentScore} (${r.opponentBalls} balls)$clock")
        }
        unobserve = { stop(); stopRun(); stopPick(); board.removeCallbacks(ticker) }
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

    /** Android's answers for the BleGate. */
    private inner class AndroidBlePermissions : PermissionSource {
        override val apiLevel: Int get() = Build.VERSION.SDK_INT
        override fun granted(): List<BlePermission> = buildList {
            val has = { p: String -> checkSelfPermission(p) == PackageManager.PERMISSION_GRANTED }
            if (Build.VERSION.SDK_INT >= 31) {
                if (has(Manifest.permission.BLUETOOTH_SCAN)) add(BlePermission.SCAN)
                if (has(Manifest.permission.BLUETOOTH_CONNECT)) add(BlePermission.CONNECT)
                if (has(Manifest.permission.BLUETOOTH_ADVERTISE)) add(BlePermission.ADVERTISE)
            }
            if (has(Manifest.permission.ACCESS_FINE_LOCATION)) add(BlePermission.FINE_LOCATION)
        }
        // Asked once and refused without a rationale to show: the system will not ask again.
        override fun deniedForGood(): Boolean = store.getString("ble.asked") != null &&
            granted().isEmpty() && !shouldShowRequestPermissionRationale(Manifest.permission.BLUETOOTH_CONNECT)
    }

    private fun showLobby() {
        leaveScreens()
        adapterWatch.register()
        val model = LobbyModel(MainThread, WifiMulticastGuard(this),
            NearbyBluetooth(bleGate, { AndroidBleCentral(this) }, { AndroidBlePeripheral(this) }))
        lobby = model
        val status = text("Looking for players nearby…", 16f)
        val bluetooth = text("", 14f).apply { visibility = View.GONE }
        val adapter = ArrayAdapter<String>(this, android.R.layout.simple_list_item_1)
        var players: List<NearbyPlayer> = emptyList()
        val list = ListView(this).apply {
            this.adapter = adapter
            setOnItemClickListener { _, _, i, _ -> players.getOrNull(i)?.let { joinMatch { model.join(it, settings, matchSound(), keptTrust(), trust::save) } } }
        }
        val col = column()
        col.addView(status)
        col.addView(bluetooth)
        col.addView(list, LinearLayout.LayoutParams(MATCH_PARENT, 0, 1f))
        col.addView(row(button("Host a game") { chooseHostedGame() }, button("Join by address") { joinByAddress() }))
        setScreen(col, home = false)
        val open = { guest: org.banco.BleGuest? -> NearbyLobby(emptyList(), true, guest) }
        lobbyOpen = open
        model.start(open)
        unobserve = model.state.observe { s ->
            players = s.players
            adapter.clear()
            adapter.addAll(s.players.map { p -> "${p.name}: ${LobbyModel.gamesText(p)}  (${LobbyModel.transportsText(p)})" })
            status.text = s.error ?: if (s.players.isEmpty()) "Looking for players nearby…" else "Tap a player to join"
            // Why Bluetooth is not used, and a tap to fix it where the system can (prompt, settings).
            bluetooth.text = s.bluetooth
            bluetooth.visibility = if (s.bluetooth != null) View.VISIBLE else View.GONE
            bluetooth.setOnClickListener {
                when (s.bluetoothStep) {
                    org.banco.BleStep.ASK_PERMISSIONS -> {
                        store.putString("ble.asked", "1")
                        nearbyPermissions.launch(bleGate.toRequest(org.banco.BleRole.GUEST).toTypedArray())
                    }
                    org.banco.BleStep.OPEN_SETTINGS -> startActivity(
                        android.content.Intent(android.provider.Settings.ACTION_APPLICATION_DETAILS_SETTINGS, android.net.Uri.fromParts("package", packageName, null)),
                    )
                    org.banco.BleStep.TURN_ON_BLUETOOTH -> startActivity(android.content.Intent(android.bluetooth.BluetoothAdapter.ACTION_REQUEST_ENABLE))
                    else -> model.restart(open)
                }
            }
        }
    }

    /** The host offers every game and proposes the one chosen here, or a Lines race. */
    private fun chooseHostedGame() {
        val games = boardGames()
        val labels = games.map { it.label } + "Lines race (balls, time limit, preview: Settings)"
        AlertDialog.Builder(this).setTitle("Propose which game?").setItems(labels.toTypedArray()) { _, i ->
            // The race as Settings set it (start balls, time limit, preview).
            val race = i == games.size
            if (!race) settings = settings.copy(game = games[i]).also { it.save(store) }
            joinMatch {
                // On the LAN, and over Bluetooth when the gate allows it (a race as a board
                // game); the usual port, or any free one if it is taken.
                val host = lobby ?: LobbyModel(MainThread, WifiMulticastGuard(this),
                    NearbyBluetooth(bleGate, { AndroidBleCentral(this) }, { AndroidBlePeripheral(this) }))
                MatchController.onFreePortIfTaken("0.0.0.0:7368") { address ->
                    host.host(settings, address, advertise = true, sound = matchSound(), trust = keptTrust(), onTrust = trust::save, race = race)
                }
            }
        }.show()
    }

    private fun joinByAddress() {
        val input = EditText(this).apply { hint = "192.168.1.20:7368"; inputType = InputType.TYPE_CLASS_TEXT }
        AlertDialog.Builder(this).setTitle("Join by address").setView(input)
            .setPositiveButton("Join") { _, _ ->
                val kept = try {
                    keptTrust()
                } catch (e: BancoException) {
                    toast(e.message ?: "Could not start the match")
                    return@setPositiveButton
                }
                // Off the UI thread: Rust may ask the DNS for a host name (slow, or stalled offline).
                pendingJoin?.cancel()
                pendingJoin = MatchController.joinInBackground(MainThread, settings.playerName, input.text.toString().trim(), matchSound(), kept, trust::save) { made ->
                    pendingJoin = null
                    joinMatch { made.getOrThrow() }
                }
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
        // A host's mDNS responder must hear the queries of guests who start looking later
        // (without the lock many phones drop incoming multicast); held while the match shows.
        matchMulticast.acquire()
        val banner = text("", 16f).apply {
            setBackgroundColor(android.graphics.Color.rgb(0xFF, 0xE0, 0x80)); visibility = View.GONE
        }
        val status = text("", 18f)
        // The clocks as Rust shows them (the controller reads them again when their text changes).
        val clocks = text("", 18f).apply { visibility = View.GONE }
        val board = BoardCanvas(this).apply { onCellTapped = { col, row -> c.tap(col, row) } }
        val (topPool, bottomPool) = text("", 14f) to text("", 14f)
        val offer = button("Offer draw") { c.offerDraw() }
        val claim = button("Claim draw") { c.claimDraw() }
        val undo = button("Ask undo") { c.requestUndo() }
        val resign = button("Resign") { confirm("Resign this game?") { c.resign() } }
        val moves = MoveList()
        val reveal = text("", 16f).apply { visibility = View.GONE }
        val col = column()
        col.addView(banner)
        col.addView(status)
        col.addView(reveal)
        col.addView(clocks)
        col.addView(topPool)
        col.addView(board, LinearLayout.LayoutParams(MATCH_PARENT, 0, 1f))
        col.addView(bottomPool)
        moves.addTo(col)
        col.addView(row(offer, claim, undo))
        col.addView(row(resign, button("Leave") { leaveMatch(c) }))
        val proposeNext = matchNextGame(c)
        col.addView(proposeNext)
        col.addView(matchRecordButtons(c))
        setScreen(col, home = false)

        // Each question is asked once per occurrence.
        var askedCode: String? = null
        var askedProposal: ULong? = null
        var proposalDialog: AlertDialog? = null
        var askedUndo: UInt? = null
        var undoDialog: AlertDialog? = null
        var askedDraw = false
        var drawDialog: AlertDialog? = null
        var askedReopen = false
        var askedPromotion: PromotionChoice? = null
        var shownResult: String? = null
        var shownKeyWarning: String? = null
        unobserve = c.state.observe { st ->
            // A remembered player with a different key: a dialog that must be closed, shown
            // over the pairing question (Rust's words).
            val warning = st.keyWarning
            if (warning != null && warning != shownKeyWarning) {
                shownKeyWarning = warning
                AlertDialog.Builder(this).setTitle("A different key").setMessage(warning).setCancelable(false)
                    .setPositiveButton("I understand") { _, _ -> c.clearKeyWarning() }.show()
            } else if (warning == null) {
                shownKeyWarning = null
            }
            if (st.race != null && st.race!!.outcome == null) {
                // A Lines race is on: its own screen, on the same match (a finished race
                // leaves the match screen to what comes next).
                showRace(c)
                return@observe
            }
            st.notice?.let { toast(it); c.clearNotice() }
            val s = st.match ?: return@observe
            board.board = s.board
            showPools(s.board, topPool, bottomPool)
            moves.show(s.moveList)
            reveal.text = st.announcement
            reveal.visibility = if (st.announcement != null) View.VISIBLE else View.GONE
            // Bluetooth's own words first (off mid-game, or why a host is on the LAN only).
            val shown = st.bluetooth ?: s.banner
            banner.text = shown
            banner.visibility = if (shown != null) View.VISIBLE else View.GONE
            val peer = s.peerName ?: "the other player"
            status.text = when (s.phase) {
                MatchPhase.CONNECTING -> "Connecting…"
                MatchPhase.LISTENING -> "Waiting for a player (${s.reachable.firstOrNull() ?: s.address})…"
                MatchPhase.VERIFY -> "Compare the code with $peer"
                MatchPhase.WAITING -> "Waiting for $peer…"
                MatchPhase.PROPOSED -> "$peer proposes a game"
                MatchPhase.PLAYING -> if (s.yourTurn) "Your move" else "$peer's move"
                MatchPhase.OVER -> s.result
                MatchPhase.CLOSED -> "The match is over: ${s.closedReason}"
            }
            val faces = s.clockFaces
            clocks.visibility = if (faces != null) View.VISIBLE else View.GONE
            if (faces != null) {
                fun face(label: String, f: org.banco.ClockFace) = (if (f.running) "▶ " else "") + "$label ${f.text}"
                clocks.text = face("You", faces.you) + "    " + face(peer, faces.opponent)
                val low = (faces.you.running && faces.you.low) || (faces.opponent.running && faces.opponent.low)
                clocks.setTextColor(if (low) android.graphics.Color.RED else android.graphics.Color.BLACK)
            }
            val playing = s.phase == MatchPhase.PLAYING
            proposeNext.visibility = if (s.canPropose) View.VISIBLE else View.GONE
            offer.isEnabled = playing
            claim.visibility = if (s.claimableDraw != null) View.VISIBLE else View.GONE
            undo.isEnabled = playing && s.moves.isNotEmpty()
            resign.isEnabled = playing
            if (s.phase == MatchPhase.VERIFY && s.code != null && s.code != askedCode) {
                askedCode = s.code
                val code = s.code!!.chunked(3).joinToString(" ")
                AlertDialog.Builder(this).setTitle("Pair with $peer")
                    .setMessage("Does the other phone show\n\n$code\n\nThe codes must match exactly.")
                    .setCancelable(false)
                    .setPositiveButton("Same code") { _, _ -> c.confirmCode(s.code!!) }
                    .setNegativeButton("Different") { _, _ -> c.rejectCode() }.show()
            }
            if (s.phase == MatchPhase.PROPOSED && s.proposal != null && s.proposalId != askedProposal) {
                askedProposal = s.proposalId
                proposalDialog?.dismiss()
                proposalDialog = askProposal(c, s)
            } else if (s.phase != MatchPhase.PROPOSED) {
                askedProposal = null
            }
            if (s.undoRequest != null && s.undoRequest != askedUndo) {
                askedUndo = s.undoRequest
                undoDialog = AlertDialog.Builder(this).setMessage("$peer asks to take back the last move.")
                    .setCancelable(false)
                    .setPositiveButton("Allow") { _, _ -> c.replyUndo(true) }
                    .setNegativeButton("Refuse") { _, _ -> c.replyUndo(false) }.show()
            } else if (s.undoRequest == null) {
                // Withdrawn (or answered): Rust no longer asks, so neither does the screen.
                askedUndo = null
                undoDialog?.dismiss()
                undoDialog = null
            }
            if (s.drawOffered && !askedDraw) {
                askedDraw = true
                drawDialog = AlertDialog.Builder(this).setMessage("$peer offers a draw.")
                    .setCancelable(false)
                    .setPositiveButton("Accept") { _, _ -> c.replyDraw(true) }
                    .setNegativeButton("Decline") { _, _ -> c.replyDraw(false) }.show()
            } else if (!s.drawOffered) {
                // Their move withdrew the offer (DrawOfferWithdrawn): close the prompt.
                askedDraw = false
                drawDialog?.dismiss()
                drawDialog = null
            }
            if (s.hostPaused && !askedReopen) {
                // Too many codes nobody confirmed: Rust takes no connection until asked again.
                askedReopen = true
                AlertDialog.Builder(this).setMessage(s.notice ?: "No more connections are taken.")
                    .setCancelable(false)
                    .setPositiveButton("Listen again") { _, _ -> c.reopen() }
                    .setNegativeButton("Leave") { _, _ -> showHome() }.show()
            } else if (!s.hostPaused) {
                askedReopen = false
            }
            val ask = st.promotion
            if (ask != null && ask != askedPromotion && s.kind != null && s.yourColor != null) {
                askedPromotion = ask
                pickPromotion(s.kind!!, s.yourColor!!, ask.choices, onPick = c::choosePromotion, onCancel = c::cancelPromotion)
            } else if (ask == null) {
                askedPromotion = null
            }
            if (s.phase == MatchPhase.OVER && s.result != shownResult) {
                shownResult = s.result
                AlertDialog.Builder(this).setTitle("Game over").setMessage(s.result)
                    .setPositiveButton("Another game") { _, _ -> c.proposeRematch() }
                    .setNegativeButton("Close", null).show()
            }
        }
    }

    /** "Save" (among the saved matches) and "Share" (PGN) of the match's game, running or finished. */
    private fun matchRecordButtons(c: MatchController): View = row(
        button("Save game") { c.saved()?.let { toast(MatchRecords(store).save(it)) } },
        button("Share game") { c.saved()?.let { saved -> c.state.value.match?.let { records.shareMatch(saved, it) } } },
    )

    /** The saved matches, newest first; one opens on the game screen as a shared record does. */
    private fun showSavedMatches() {
        val saved = MatchRecords(store).list()
        if (saved.isEmpty()) return toast("No saved matches yet (Save game on a match's screen)")
        AlertDialog.Builder(this).setTitle("Saved matches").setItems(saved.map { it.label }.toTypedArray()) { _, i ->
            showGame { it.openSaved(saved[i].saved, settings) }
        }.show()
    }

    /**
     * After a game or between games: either side proposes the game Settings choose (game,
     * colour, rules, clock); the other side gets the accept prompt. Shown by the match screen.
     */
    private fun matchNextGame(c: MatchController): Button =
        button("Propose ${settings.game.label} (${offerClockText(settings.matchClock())})") { c.propose(settings) }
            .apply { visibility = View.GONE }

    /**
     * The accept prompt of the other player's proposal in match [c]'s state [s]: its terms in
     * Rust's words, as iOS shows them (a race's options; the colour, rules, set-up start, clock).
     * Play accepts this proposal (its number) and no other: one the other player replaced since
     * is refused, and the new one gets its own prompt.
     */
    private fun askProposal(c: MatchController, s: org.banco.MatchState): AlertDialog? {
        val proposal = s.proposal ?: return null
        val id = s.proposalId ?: return null
        val peer = s.peerName ?: "the other player"
        val builder = AlertDialog.Builder(this).setTitle("$peer proposes ${proposal.game.label}")
            .setMessage(s.offeredTerms)
        // A set-up start is drawn from this player's side, as Rust gives it, before it is accepted.
        s.offeredBoard?.let { shown -> builder.setView(BoardCanvas(this).apply { board = shown }) }
        return builder
            .setCancelable(false)
            .setPositiveButton("Play") { _, _ -> c.acceptOffer(id) }
            .setNegativeButton("Decline") { _, _ -> c.declineProposal() }.show()
    }

    /** The promotion picker: the pieces Rust offers, drawn with the player's glyphs. */
    private fun pickPromotion(kind: GameKind, color: Color, choices: List<PieceKind>, onPick: (PieceKind) -> Unit, onCancel: () -> Unit) {
        val glyphs = org.banco.Game(kind).use { g ->
            g.pieces().map { it.piece }.filter { it.color == color }.associate { it.kind to "${it.glyph}  ${it.name}" }
        }
        val labels = choices.map { glyphs[it] ?: it.name.lowercase() }.toTypedArray()
        AlertDialog.Builder(this).setTitle("Promote to")
            .setItems(labels) { _, i -> onPick(choices[i]) }
            .setOnCancelListener { onCancel() }
            .show()
    }

    private fun editSettings() {
        val name = EditText(this).apply { setText(settings.playerName); hint = "Your name" }
        val levelText = text("Computer level: ${settings.level}", 16f)
        val levels = computerLevels
        val level = SeekBar(this).apply {
            max = levels.last - levels.first
            progress = settings.level - levels.first
            setOnSeekBarChangeListener(object : SeekBar.OnSeekBarChangeListener {
                override fun onProgressChanged(bar: SeekBar, p: Int, fromUser: Boolean) {
                    levelText.text = "Computer level: ${p + levels.first}"
                }
                override fun onStartTrackingTouch(bar: SeekBar) {}
                override fun onStopTrackingTouch(bar: SeekBar) {}
            })
        }
        val first = RadioButton(this).apply { text = "Move first (Red / White)"; id = View.generateViewId() }
        val second = RadioButton(this).apply { text = "Move second (Black)"; id = View.generateViewId() }
        val colours = RadioGroup(this).apply { addView(first); addView(second); check(if (settings.color == Color.RED) first.id else second.id) }
        val offered = offeredPresets()
        val presetButtons = offered.map { p -> RadioButton(this).apply { text = p.label; id = View.generateViewId() } }
        val presets = RadioGroup(this).apply {
            presetButtons.forEach { addView(it) }
            presetButtons.getOrNull(offered.indexOfFirst { it.name == settings.rules })?.let { check(it.id) }
        }
        val soundBox = CheckBox(this).apply { text = "Sound"; isChecked = settings.sound }
        val previewBox = CheckBox(this).apply {
            text = "Lines: show where the next balls land (Lines 98's preview, from the next new game)"
            isChecked = settings.linesPreview
        }
        // A Lines race hosted: start balls and time limit (the preview above applies too).
        fun choices(values: List<Int>, current: Int, label: (Int) -> String): Pair<RadioGroup, List<Pair<Int, RadioButton>>> {
            val buttons = values.map { v -> v to RadioButton(this).apply { text = label(v); id = View.generateViewId() } }
            val group = RadioGroup(this).apply {
                orientation = LinearLayout.HORIZONTAL
                buttons.forEach { addView(it.second) }
                (buttons.firstOrNull { it.first == current } ?: buttons.first()).second.let { check(it.id) }
            }
            return group to buttons
        }
        val (ballsGroup, ballsButtons) = choices(Settings.RACE_START_BALLS, settings.raceStartBalls) { "$it balls" }
        val (minutesGroup, minutesButtons) = choices(Settings.RACE_MINUTES, settings.raceMinutes) { Settings.raceMinutesLabel(it) }
        // A new solo Lines game: start balls, undo rule and time limit, as Rust offers them.
        val (linesBallsGroup, linesBallsButtons) = choices(Settings.LINES_START_BALLS, settings.linesStartBalls) { "$it balls" }
        val undoChoices = Settings.LINES_UNDO
        val (linesUndoGroup, linesUndoButtons) =
            choices(undoChoices.indices.toList(), undoChoices.indexOfFirst { it.undo == settings.linesUndo }) { undoChoices[it].label }
        linesUndoGroup.orientation = LinearLayout.VERTICAL
        val limits = Settings.LINES_TIME_LIMITS
        val (linesTimeGroup, linesTimeButtons) =
            choices(limits.map { it.seconds.toInt() }, settings.linesTimeLimitS) { s -> limits.first { it.seconds.toInt() == s }.label }
        // How hard the Lines hint thinks (every game's, the one on screen too).
        val hints = Settings.LINES_HINTS
        val (linesHintGroup, linesHintButtons) =
            choices(hints.map { it.playouts.toInt() }, settings.linesHintPlayouts) { p -> hints.first { it.playouts.toInt() == p }.label }
        linesHintGroup.orientation = LinearLayout.VERTICAL
        val (clockGroup, chosenClock) = clockPicker()
        val col = column().apply {
            listOf(name, levelText, level, colours, text("Rules (xiangqi, jieqi)", 14f), presets, soundBox, previewBox,
                text("A new Lines game (a continued one keeps its own)", 14f), linesBallsGroup, linesUndoGroup, linesTimeGroup,
                text("Lines hint", 14f), linesHintGroup,
                text("Lines race you host", 14f), ballsGroup, minutesGroup).forEach { addView(it) }
            addView(text("Clock of the games you host or propose", 14f)); addView(clockGroup)
        }
        fun <T> picked(group: RadioGroup, buttons: List<Pair<T, RadioButton>>): T? =
            buttons.firstOrNull { it.second.id == group.checkedRadioButtonId }?.first
        AlertDialog.Builder(this).setTitle("Settings").setView(ScrollView(this).apply { addView(col) })
            .setPositiveButton("Save") { _, _ ->
                settings = settings.copy(
                    level = level.progress + levels.first,
                    color = if (colours.checkedRadioButtonId == second.id) Color.BLACK else Color.RED,
                    rules = offered.getOrNull(presetButtons.indexOfFirst { it.id == presets.checkedRadioButtonId })?.name ?: settings.rules,
                    sound = soundBox.isChecked,
                    linesPreview = previewBox.isChecked,
                    linesStartBalls = picked(linesBallsGroup, linesBallsButtons) ?: settings.linesStartBalls,
                    linesUndo = picked(linesUndoGroup, linesUndoButtons)?.let { undoChoices[it].undo } ?: settings.linesUndo,
                    linesTimeLimitS = picked(linesTimeGroup, linesTimeButtons) ?: settings.linesTimeLimitS,
                    linesHintPlayouts = picked(linesHintGroup, linesHintButtons) ?: settings.linesHintPlayouts,
                    raceStartBalls = ballsButtons.firstOrNull { it.second.id == ballsGroup.checkedRadioButtonId }?.first ?: settings.raceStartBalls,
                    raceMinutes = minutesButtons.firstOrNull { it.second.id == minutesGroup.checkedRadioButtonId }?.first ?: settings.raceMinutes,
                    playerName = playerDisplayName(name.text.toString()) ?: settings.playerName, // Rust's rule: what a match sends
                    clock = chosenClock(),
                )
                settings.save(store)
                gameController.setSound(settings.sound)
                linesController.setHintPlayouts(settings.linesHintPlayouts) // at once, for the game on screen too
            }
            .setNegativeButton("Cancel", null).show()
    }

    /** The match clock of Settings: untimed or one of Rust's presets; returns the group and the chosen name. */
    private fun clockPicker(): Pair<RadioGroup, () -> String> {
        val options = listOf("" to "Untimed") + clockPresets().map { it.name to it.label }
        val buttons = options.map { (value, label) -> value to RadioButton(this).apply { text = label; id = View.generateViewId() } }
        val group = RadioGroup(this).apply {
            buttons.forEach { addView(it.second) }
            (buttons.firstOrNull { it.first == settings.clock } ?: buttons.first()).second.let { check(it.id) }
        }
        return group to { buttons.firstOrNull { it.second.id == group.checkedRadioButtonId }?.first ?: "" }
    }

    // ---- helpers -------------------------------------------------------------------------

    /** The lobby on screen reads Bluetooth's state again ([LobbyModel.recheck]). */
    private fun recheckLobby() {
        val open = lobbyOpen ?: return
        lobby?.recheck(open)
    }

    /** Jieqi: each side's hidden pieces by kind and count, next to that side of the board. */
    private fun showPools(board: org.banco.BoardView?, top: TextView, bottom: TextView) {
        val shelves = board?.poolShelves()
        for ((view, shelf) in listOf(top to shelves?.top, bottom to shelves?.bottom)) {
            view.visibility = if (shelf != null) View.VISIBLE else View.GONE
            view.text = shelf?.text ?: ""
            val red = shelf?.color == Color.RED
            view.setTextColor(if (red) android.graphics.Color.rgb(0xB0, 0x10, 0x10) else android.graphics.Color.rgb(0x20, 0x20, 0x20))
        }
    }

    private fun matchSound(): SoundPlayer = if (settings.sound) sound else SoundPlayer.SILENT

    /** Leaves whatever screen is shown: stops observing, the computer, discovery, the match. */
    private fun leaveScreens() {
        unobserve?.invoke()
        unobserve = null
        if (showingGame) gameController.close()
        showingGame = false
        if (showingLines) linesController.pause()
        showingLines = false
        lobby?.stop()
        lobby = null
        // A join by address that finishes after the player left must not open the match screen.
        pendingJoin?.cancel()
        pendingJoin = null
        match?.leave()
        match = null
        matchMulticast.release()
    }

    /** Leaves match [c]: asked first while a game or race is in progress, which leaving resigns (Rust's rule). */
    private fun leaveMatch(c: MatchController) {
        if (c.state.value.phase == MatchPhase.PLAYING) {
            confirm("Leave the match? The game in progress counts as resigned.") { showHome() }
        } else {
            showHome()
        }
    }

    private fun confirm(question: String, yes: () -> Unit) {
        AlertDialog.Builder(this).setMessage(question)
            .setPositiveButton("Yes") { _, _ -> yes() }.setNegativeButton("Cancel", null).show()
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

    /**
     * The move list under a board: Rust's numbered lines (a full move a line) in a scroll of a
     * fixed height, kept at the last move, so the board keeps its size as the game grows.
     */
    private inner class MoveList {
        private val lines = text("", 14f)
        private val scroll = ScrollView(this@MainActivity).apply { addView(lines) }

        fun addTo(col: LinearLayout) =
            col.addView(scroll, LinearLayout.LayoutParams(MATCH_PARENT, (72 * resources.displayMetrics.density).toInt()))

        fun show(list: List<String>) {
            val text = list.joinToString("\n")
            if (lines.text.toString() == text) return
            lines.text = text
            scroll.post { scroll.fullScroll(View.FOCUS_DOWN) }
        }
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

    /** The device's key and remembered players for a match; kept bytes that could not be read were set aside, and the player is told once. */
    private fun keptTrust(): ByteArray? = trust.load().also { trust.takeNotice()?.let { n -> Toast.makeText(this, n, Toast.LENGTH_LONG).show() } }
}
