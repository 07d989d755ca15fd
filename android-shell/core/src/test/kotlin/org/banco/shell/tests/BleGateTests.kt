// BleGate: the permission and adapter states players hit before and during a Bluetooth match.
package org.banco.shell.tests

import org.banco.BleAdapterState
import org.banco.BlePermission
import org.banco.BleRole
import org.banco.BleStep
import org.banco.shell.BleGate
import org.banco.shell.PermissionSource
import org.banco.shell.UiDispatcher

class FakePermissions(override val apiLevel: Int) : PermissionSource {
    var held = mutableListOf<BlePermission>()
    var forGood = false
    override fun granted() = held.toList()
    override fun deniedForGood() = forGood
}

fun bleGateTests(s: Suite) {
    s.test("BLE gate: Android 12+ permissions, refusal, Bluetooth off, adapter lost mid-game") {
        val perms = FakePermissions(34)
        val now = object : UiDispatcher { override fun post(block: () -> Unit) = block() }
        val gate = BleGate(perms, now)
        val banners = mutableListOf<String?>()
        gate.onBanner = { banners += it }
        eq(BleStep.ASK_PERMISSIONS, gate.check(BleRole.HOST).step)
        eq(listOf("android.permission.BLUETOOTH_ADVERTISE", "android.permission.BLUETOOTH_CONNECT"), gate.toRequest(BleRole.HOST))
        eq(listOf("android.permission.BLUETOOTH_SCAN", "android.permission.BLUETOOTH_CONNECT"), gate.toRequest(BleRole.GUEST))
        perms.held += BlePermission.CONNECT
        perms.forGood = true
        val refused = gate.check(BleRole.HOST)
        eq(BleStep.OPEN_SETTINGS, refused.step)
        check(refused.message!!.contains("system settings")) { "${refused.message}" }
        eq(emptyList<String>(), gate.toRequest(BleRole.HOST), "no prompt once refused for good")
        perms.held += BlePermission.ADVERTISE
        perms.forGood = false
        gate.adapterChanged(BleAdapterState.OFF)
        eq(BleStep.TURN_ON_BLUETOOTH, gate.check(BleRole.HOST).step)
        check(gate.banner!!.contains("Bluetooth is off")) { "${gate.banner}" }
        gate.adapterChanged(BleAdapterState.OFF)
        gate.adapterChanged(BleAdapterState.ON)
        eq(BleStep.READY, gate.check(BleRole.HOST).step)
        eq(null, gate.banner)
        eq(2, banners.size, "one banner when Bluetooth went off, cleared when it came back")
        // Android 11: scanning needs location, hosting nothing at run time.
        val old = BleGate(FakePermissions(30), now)
        eq(listOf("android.permission.ACCESS_FINE_LOCATION"), old.toRequest(BleRole.GUEST))
        eq(BleStep.READY, old.check(BleRole.HOST).step)
    }
}
