// The Android side of core's interfaces: the main-thread dispatcher, SharedPreferences storage,
// sounds, and the Wi-Fi multicast lock held while discovering.
package org.banco.app

import android.content.Context
import android.media.AudioManager
import android.media.ToneGenerator
import android.net.wifi.WifiManager
import android.os.Handler
import android.os.Looper
import org.banco.shell.KeyValueStore
import org.banco.shell.MulticastGuard
import org.banco.shell.Sound
import org.banco.shell.SoundPlayer
import org.banco.shell.UiDispatcher

/** Banco's listeners run on Rust-owned threads: everything they report is posted to the main Looper. */
object MainThread : UiDispatcher {
    private val handler = Handler(Looper.getMainLooper())
    override fun post(block: () -> Unit) {
        handler.post(block)
    }

    override fun postDelayed(delayMs: Long, block: () -> Unit): () -> Unit {
        val r = Runnable(block)
        handler.postDelayed(r, delayMs)
        return { handler.removeCallbacks(r) }
    }
}

/** The preferences file [name] (`banco`, or [TRUST] for the device's key). */
class PrefsStore(context: Context, name: String = "banco") : KeyValueStore {
    private val prefs = context.getSharedPreferences(name, Context.MODE_PRIVATE)
    override fun getString(key: String): String? = prefs.getString(key, null)
    override fun putString(key: String, value: String?) {
        prefs.edit().apply { if (value == null) remove(key) else putString(key, value) }.apply()
    }

    companion object {
        /**
         * The file of the device's secret key and remembered players (Rust's TrustKeeper,
         * through core's trustKeeper): excluded from cloud backup and device transfer by
         * res/xml/backup_rules.xml and data_extraction_rules.xml (keep the names in step).
         */
        const val TRUST = "banco-trust"
    }
}

/** Short tones: no sound assets to ship. */
class ToneSound : SoundPlayer {
    private val tones = runCatching { ToneGenerator(AudioManager.STREAM_MUSIC, 60) }.getOrNull()
    override fun play(sound: Sound) {
        val t = tones ?: return
        when (sound) {
            Sound.MOVE -> t.startTone(ToneGenerator.TONE_PROP_BEEP, 60)
            Sound.CAPTURE -> t.startTone(ToneGenerator.TONE_PROP_ACK, 120)
            Sound.CHECK -> t.startTone(ToneGenerator.TONE_PROP_BEEP2, 200)
            Sound.GAME_OVER -> t.startTone(ToneGenerator.TONE_CDMA_ALERT_CALL_GUARD, 400)
        }
    }

    fun release() {
        tones?.release()
    }
}

/** Without a MulticastLock many phones drop incoming multicast, and mDNS finds nobody. */
class WifiMulticastGuard(context: Context) : MulticastGuard {
    private val lock: WifiManager.MulticastLock =
        (context.applicationContext.getSystemService(Context.WIFI_SERVICE) as WifiManager)
            .createMulticastLock("banco-discovery")
            .apply { setReferenceCounted(false) }

    override fun acquire() = lock.acquire()
    override fun release() {
        if (lock.isHeld) lock.release()
    }
}
