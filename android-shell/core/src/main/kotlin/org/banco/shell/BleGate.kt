// Before a Bluetooth match and during it: which permissions to ask for, whether to ask the
// player to turn Bluetooth on, and the banner while the adapter is off mid-game. The rules
// and the words are Rust's (bleReadiness, bleAdapterMessage); this only feeds them the
// platform's facts and keeps the adapter state the GATT code reports.
package org.banco.shell

import org.banco.BleAdapterState
import org.banco.BlePermission
import org.banco.BlePlatform
import org.banco.BleReadiness
import org.banco.BleRole
import org.banco.BleStep
import org.banco.bleAdapterMessage
import org.banco.bleReadiness

/** What the platform says about permissions (Android: ContextCompat.checkSelfPermission…). */
interface PermissionSource {
    /** Build.VERSION.SDK_INT. */
    val apiLevel: Int

    /** The Bluetooth permissions held now. */
    fun granted(): List<BlePermission>

    /** The system will not show the prompt again (refused with "don't ask again"). */
    fun deniedForGood(): Boolean
}

class BleGate(private val permissions: PermissionSource, private val ui: UiDispatcher) {
    /** The adapter as last reported by the GATT code (AdapterWatch). */
    @Volatile var adapter: BleAdapterState = BleAdapterState.ON
        private set

    /** Shown over the board while Bluetooth is unusable mid-game; null otherwise. */
    @Volatile var banner: String? = null
        private set

    /** Called (on the UI thread) when the banner changes. */
    var onBanner: (String?) -> Unit = {}

    /** Also told of banner changes (a match over Bluetooth); on the UI thread. */
    private val bannerObservers = mutableListOf<(String?) -> Unit>()

    /** Calls [observer] now (on the UI thread) with the banner and after every change; returns a cancel. */
    fun observeBanner(observer: (String?) -> Unit): () -> Unit {
        bannerObservers += observer
        observer(banner)
        return { bannerObservers -= observer }
    }

    /** Where Bluetooth stands before hosting or joining. */
    fun check(role: BleRole): BleReadiness = bleReadiness(
        role, BlePlatform.Android(permissions.apiLevel.toUInt()), permissions.granted(),
        permissions.deniedForGood(), adapter,
    )

    /** The permission names to pass to requestPermissions for [role] (empty: none missing). */
    fun toRequest(role: BleRole): List<String> = check(role).let {
        if (it.step == BleStep.ASK_PERMISSIONS) it.missingNames else emptyList()
    }

    /** The adapter changed (from any thread): the banner follows; the match resumes by itself. */
    fun adapterChanged(state: BleAdapterState) {
        adapter = state
        val text = bleAdapterMessage(state)
        if (text != banner) {
            banner = text
            ui.post {
                onBanner(text)
                for (o in bannerObservers.toList()) o(text)
            }
        }
    }
}
