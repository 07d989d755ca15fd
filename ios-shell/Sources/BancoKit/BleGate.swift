// Before a Bluetooth match and during it: whether to ask for the Bluetooth permission, send
// the player to Settings, ask to turn Bluetooth on, and the banner while the adapter is off
// mid-game. The rules and the words are Rust's (bleReadiness, bleAdapterMessage); this feeds
// them CoreBluetooth's facts (CBManager.authorization, the managers' state) and keeps the
// adapter state the app's CoreBluetooth code reports. Confined to the UI dispatcher's thread.
import Foundation

public final class BleGate: Model {
    /// CBManagerAuthorization, as the app maps it.
    public enum Authorization: Equatable {
        case notDetermined, allowed, denied
    }

    private let ui: UIDispatcher
    /// The adapter as last reported.
    public private(set) var adapter: BleAdapterState = .on
    /// Shown over the board while Bluetooth is unusable mid-game; nil otherwise.
    public private(set) var banner: String?

    public init(ui: UIDispatcher) {
        self.ui = ui
        super.init()
    }

    /// Where Bluetooth stands before hosting or joining.
    public func check(role: BleRole, authorization: Authorization) -> BleReadiness {
        bleReadiness(role: role, platform: .ios, granted: authorization == .allowed ? [.bluetooth] : [],
                     deniedForGood: authorization == .denied, adapter: adapter)
    }

    /// The adapter changed (from any thread, e.g. centralManagerDidUpdateState): the banner
    /// follows on the UI thread; the match resumes by itself when it is back.
    public func adapterChanged(_ state: BleAdapterState) {
        ui.post { [weak self] in
            guard let self else { return }
            self.adapter = state
            let text = bleAdapterMessage(state: state)
            if text != self.banner {
                self.banner = text
                self.didChange()
            }
        }
    }
}
