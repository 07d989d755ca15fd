// The nearby-players list: hosts found and lost on the LAN, and joining one of them.
package org.banco.shell

import org.banco.BancoException
import org.banco.Lobby
import org.banco.LobbyListener
import org.banco.LobbyPeer

/** Held while discovering (Android: a WifiManager.MulticastLock, without which mDNS hears nothing). */
interface MulticastGuard {
    fun acquire()
    fun release()

    companion object {
        val NONE = object : MulticastGuard {
            override fun acquire() {}
            override fun release() {}
        }
    }
}

class LobbyModel(
    private val ui: UiDispatcher,
    private val multicast: MulticastGuard = MulticastGuard.NONE,
) : LobbyListener {
    data class State(
        /** Hosts seen, by name. */
        val peers: List<LobbyPeer> = emptyList(),
        val discovering: Boolean = false,
        val error: String? = null,
    )

    val state = Observable(State())
    private var lobby: Lobby? = null

    /** Starts discovery with the lobby [open] makes (`Lobby(listOf())` on a phone). */
    fun start(open: () -> Lobby) {
        if (lobby != null) return
        multicast.acquire()
        try {
            val l = open()
            l.browse(this)
            lobby = l
            state.value = state.value.copy(discovering = true, error = null)
        } catch (e: BancoException) {
            multicast.release()
            state.value = state.value.copy(discovering = false, error = readable(e))
        }
    }

    /** Stops discovery (leaving the screen); the list is kept until the next start. */
    fun stop() {
        val l = lobby ?: return
        lobby = null
        runCatching { l.stop() }
        l.close()
        multicast.release()
        state.value = state.value.copy(discovering = false)
    }

    /** Joins [peer]: a match controller whose first events are the pairing code. */
    fun join(peer: LobbyPeer, settings: Settings, sound: SoundPlayer = SoundPlayer.SILENT): MatchController =
        MatchController.joinPeer(ui, settings.playerName, peer, sound)

    // LobbyListener: Rust's lobby thread; hop to the UI thread.
    override fun onPeerFound(peer: LobbyPeer) = ui.post { upsert(peer) }
    override fun onPeerUpdated(peer: LobbyPeer) = ui.post { upsert(peer) }
    override fun onPeerLost(id: String) = ui.post {
        state.value = state.value.copy(peers = state.value.peers.filter { it.id != id })
    }
    override fun onError(message: String) = ui.post { state.value = state.value.copy(error = message) }

    companion object {
        /** The games a peer offers, as the list shows them ("Xiangqi, Chess"). */
        fun gamesText(peer: LobbyPeer): String = peer.games.joinToString(", ") { it.label }
    }

    private fun upsert(peer: LobbyPeer) {
        val others = state.value.peers.filter { it.id != peer.id }
        state.value = state.value.copy(peers = (others + peer).sortedWith(compareBy({ it.name.lowercase() }, { it.id })))
    }
}
