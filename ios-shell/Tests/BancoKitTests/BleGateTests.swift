// BleGate: the Bluetooth permission and adapter states players hit on iOS.
import Foundation
import BancoKit

func bleGateTests(_ s: Suite) {
    s.test("BLE gate: authorization, Bluetooth off, adapter lost mid-game") {
        let ui = TestUI()
        let gate = ui.call { BleGate(ui: ui) }
        var changes = 0
        ui.call { _ = gate.observe { changes += 1 } }
        try eq(BleStep.askPermissions, ui.call { gate.check(role: .host, authorization: .notDetermined) }.step)
        let denied = ui.call { gate.check(role: .guest, authorization: .denied) }
        try eq(BleStep.openSettings, denied.step)
        try check(denied.message?.contains("allow Bluetooth for Banco") == true, "\(String(describing: denied.message))")
        try eq(["NSBluetoothAlwaysUsageDescription"], denied.missingNames)
        gate.adapterChanged(.off)
        let off = try ui.wait("the banner", { gate.banner }, until: { $0 != nil })
        try check(off?.contains("Bluetooth is off") == true, "\(String(describing: off))")
        try eq(BleStep.turnOnBluetooth, ui.call { gate.check(role: .host, authorization: .allowed) }.step)
        gate.adapterChanged(.off)
        gate.adapterChanged(.on)
        _ = try ui.wait("no banner", { gate.banner }, until: { $0 == nil })
        try eq(BleStep.ready, ui.call { gate.check(role: .host, authorization: .allowed) }.step)
        try eq(2, ui.call { changes }, "one change when Bluetooth went off, one when it came back")
    }
}
