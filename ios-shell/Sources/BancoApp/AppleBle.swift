// Bluetooth LE for Banco on iOS: the platform half of the FFI's foreign traits. The host is
// AppleBlePeripheral (CBPeripheralManager), the guest AppleBleCentral (CBCentralManager).
// They only move ATT values and report callbacks; fragmentation, the session, pairing and
// resume are Rust's (banco-net ble::hub). Needs NSBluetoothAlwaysUsageDescription in the
// app's Info.plist (README); BleGate (BancoKit) decides when to ask.
//
// CoreBluetooth calls back on `queue`; Rust calls these methods on its own threads, so every
// touch of CoreBluetooth hops to `queue` (sync for the answers Rust waits for, which are quick).
#if canImport(CoreBluetooth)
import CoreBluetooth
import Foundation

func adapterState(_ state: CBManagerState) -> BleAdapterState {
    switch state {
    case .poweredOn: return .on
    case .poweredOff: return .off
    case .unauthorized: return .unauthorized
    case .unsupported: return .unsupported
    case .resetting, .unknown: return .resetting
    @unknown default: return .resetting
    }
}

final class AppleBlePeripheral: NSObject, BlePeripheral, CBPeripheralManagerDelegate, @unchecked Sendable {
    private let queue = DispatchQueue(label: "banco.ble.peripheral")
    /// Also told of the adapter's state (the app's BleGate, for its banner).
    private let onAdapter: (BleAdapterState) -> Void

    init(onAdapter: @escaping (BleAdapterState) -> Void = { _ in }) {
        self.onAdapter = onAdapter
        super.init()
    }
    private var manager: CBPeripheralManager?
    private var events: BlePeripheralEvents?
    private var advertisement: BleAdvertisement?
    private var notifyChar: CBMutableCharacteristic?
    private var centrals: [String: CBCentral] = [:]

    func start(advertisement: BleAdvertisement, events: BlePeripheralEvents) throws {
        queue.sync {
            self.events = events
            self.advertisement = advertisement
            if let m = manager {
                if m.state == .poweredOn { publish(m) }
            } else {
                // Publishing waits for .poweredOn (peripheralManagerDidUpdateState).
                manager = CBPeripheralManager(delegate: self, queue: queue)
            }
        }
        if CBPeripheralManager.authorization == .denied {
            throw BleError.Unauthorized(reason: "Bluetooth is not allowed for Banco")
        }
    }

    private func publish(_ m: CBPeripheralManager) {
        guard let ad = advertisement else { return }
        m.stopAdvertising()
        m.removeAllServices()
        centrals.removeAll()
        let write = CBMutableCharacteristic(type: CBUUID(string: ad.service.writeUuid),
                                            properties: [.write, .writeWithoutResponse], value: nil,
                                            permissions: [.writeable])
        let notify = CBMutableCharacteristic(type: CBUUID(string: ad.service.notifyUuid),
                                             properties: [.notify], value: nil, permissions: [])
        let info = CBMutableCharacteristic(type: CBUUID(string: ad.service.infoUuid),
                                           properties: [.read], value: nil, permissions: [.readable])
        let service = CBMutableService(type: CBUUID(string: ad.service.serviceUuid), primary: true)
        service.characteristics = [write, notify, info]
        notifyChar = notify
        m.add(service)
        m.startAdvertising([CBAdvertisementDataServiceUUIDsKey: [service.uuid],
                            CBAdvertisementDataLocalNameKey: ad.localName])
    }

    func notify(central: String, value: Data) throws -> Bool {
        try queue.sync {
            guard let m = manager, let ch = notifyChar else { throw BleError.Failed(reason: "not advertising") }
            guard let c = centrals[central] else { throw BleError.Failed(reason: "\(central) is not subscribed") }
            // false: the queue is full; peripheralManagerIsReady(toUpdateSubscribers:) follows.
            return m.updateValue(value, for: ch, onSubscribedCentrals: [c])
        }
    }

    // A peripheral cannot drop a central on iOS: forget it (its writes are then ignored by Rust).
    func disconnect(central: String) {
        queue.async { self.centrals[central] = nil }
    }

    func stop() {
        queue.sync {
            manager?.stopAdvertising()
            manager?.removeAllServices()
            centrals.removeAll()
            advertisement = nil
        }
    }

    func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {
        let state = adapterState(peripheral.state)
        if state == .on { publish(peripheral) } else { centrals.removeAll() }
        events?.onAdapterState(state: state)
        onAdapter(state)
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral,
                           didSubscribeTo characteristic: CBCharacteristic) {
        let id = central.identifier.uuidString
        centrals[id] = central
        // maximumUpdateValueLength is the notification payload: the ATT MTU less 3.
        events?.onSubscribed(central: id, mtu: UInt16(min(central.maximumUpdateValueLength + 3, 517)))
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral,
                           didUnsubscribeFrom characteristic: CBCharacteristic) {
        let id = central.identifier.uuidString
        centrals[id] = nil
        events?.onUnsubscribed(central: id)
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, didReceiveRead request: CBATTRequest) {
        guard let info = advertisement?.info, request.characteristic.uuid == CBUUID(string: advertisement!.service.infoUuid) else {
            peripheral.respond(to: request, withResult: .readNotPermitted)
            return
        }
        guard request.offset <= info.count else {
            peripheral.respond(to: request, withResult: .invalidOffset)
            return
        }
        request.value = info.subdata(in: request.offset..<info.count)
        peripheral.respond(to: request, withResult: .success)
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, didReceiveWrite requests: [CBATTRequest]) {
        for r in requests {
            if let v = r.value { events?.onWrite(central: r.central.identifier.uuidString, value: v) }
        }
        // One response for the batch (writes with response); none is expected otherwise.
        if let first = requests.first { peripheral.respond(to: first, withResult: .success) }
    }

    func peripheralManagerIsReady(toUpdateSubscribers peripheral: CBPeripheralManager) {
        events?.onReadyToNotify()
    }
}

final class AppleBleCentral: NSObject, BleCentral, CBCentralManagerDelegate, CBPeripheralDelegate, @unchecked Sendable {
    private let queue = DispatchQueue(label: "banco.ble.central")
    /// Also told of the adapter's state (the app's BleGate, for its banner).
    private let onAdapter: (BleAdapterState) -> Void

    init(onAdapter: @escaping (BleAdapterState) -> Void = { _ in }) {
        self.onAdapter = onAdapter
        super.init()
    }
    private var manager: CBCentralManager?
    private var events: BleCentralEvents?
    private var service: BleService = bleService()
    private var seen: [String: CBPeripheral] = [:]
    /// Devices connected for reading the info only.
    private var infoReads: Set<String> = []
    /// Devices whose link is up (subscribed).
    private var linked: Set<String> = []

    func start(events: BleCentralEvents) throws {
        queue.sync {
            self.events = events
            if manager == nil { manager = CBCentralManager(delegate: self, queue: queue) }
        }
    }

    func scan(service: BleService) throws {
        try queue.sync {
            self.service = service
            guard let m = manager, m.state == .poweredOn else { throw BleError.Off(reason: "Bluetooth is off") }
            // Every advertisement, not each peripheral once: the lobby drops a host not seen for 30 s.
            m.scanForPeripherals(withServices: [CBUUID(string: service.serviceUuid)],
                                 options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        }
    }

    func stopScan() { queue.async { self.manager?.stopScan() } }

    private func peripheral(_ device: String) throws -> CBPeripheral {
        if let p = seen[device] { return p }
        guard let id = UUID(uuidString: device), let m = manager,
              let p = m.retrievePeripherals(withIdentifiers: [id]).first else {
            throw BleError.Failed(reason: "unknown device \(device)")
        }
        seen[device] = p
        return p
    }

    func readInfo(device: String) throws {
        try queue.sync {
            let p = try peripheral(device)
            infoReads.insert(device)
            p.delegate = self
            manager?.connect(p)
        }
    }

    func connect(device: String) throws {
        try queue.sync {
            let p = try peripheral(device)
            infoReads.remove(device)
            p.delegate = self
            manager?.connect(p)
        }
    }

    func write(device: String, value: Data, withResponse: Bool) throws -> Bool {
        try queue.sync {
            let p = try peripheral(device)
            guard let ch = characteristic(p, service.writeUuid) else { throw BleError.Failed(reason: "not connected") }
            if withResponse {
                p.writeValue(value, for: ch, type: .withResponse)
                return true
            }
            // false: peripheralIsReady(toSendWriteWithoutResponse:) follows.
            guard p.canSendWriteWithoutResponse else { return false }
            p.writeValue(value, for: ch, type: .withoutResponse)
            return true
        }
    }

    func disconnect(device: String) {
        queue.async {
            if let p = self.seen[device] { self.manager?.cancelPeripheralConnection(p) }
        }
    }

    private func characteristic(_ p: CBPeripheral, _ uuid: String) -> CBCharacteristic? {
        p.services?.first { $0.uuid == CBUUID(string: service.serviceUuid) }?
            .characteristics?.first { $0.uuid == CBUUID(string: uuid) }
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        events?.onAdapterState(state: adapterState(central.state))
        onAdapter(adapterState(central.state))
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        let id = peripheral.identifier.uuidString
        seen[id] = peripheral
        events?.onDiscovered(device: id, localName: advertisementData[CBAdvertisementDataLocalNameKey] as? String)
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        peripheral.discoverServices([CBUUID(string: service.serviceUuid)])
    }

    func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: Error?) {
        let id = peripheral.identifier.uuidString
        let reason = error?.localizedDescription ?? "cannot connect"
        if infoReads.remove(id) != nil { events?.onInfoFailed(device: id, reason: reason) }
        else { events?.onConnectFailed(device: id, reason: reason) }
    }

    func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: Error?) {
        let id = peripheral.identifier.uuidString
        if linked.remove(id) != nil { events?.onDisconnected(device: id) }
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        guard let s = peripheral.services?.first(where: { $0.uuid == CBUUID(string: service.serviceUuid) }) else {
            fail(peripheral, "not a Banco host")
            return
        }
        peripheral.discoverCharacteristics(nil, for: s)
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor s: CBService, error: Error?) {
        let id = peripheral.identifier.uuidString
        if infoReads.contains(id) {
            // CoreBluetooth reads long values (Read Blob) by itself.
            guard let info = characteristic(peripheral, service.infoUuid) else { return fail(peripheral, "no info") }
            peripheral.readValue(for: info)
        } else {
            guard let notify = characteristic(peripheral, service.notifyUuid) else { return fail(peripheral, "no notify") }
            peripheral.setNotifyValue(true, for: notify)
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor ch: CBCharacteristic, error: Error?) {
        let id = peripheral.identifier.uuidString
        guard error == nil, ch.isNotifying else { return fail(peripheral, error?.localizedDescription ?? "cannot subscribe") }
        linked.insert(id)
        // The largest write without response is the ATT MTU less 3 (iOS negotiates the MTU itself).
        let mtu = peripheral.maximumWriteValueLength(for: .withoutResponse) + 3
        events?.onConnected(device: id, mtu: UInt16(min(mtu, 517)))
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor ch: CBCharacteristic, error: Error?) {
        let id = peripheral.identifier.uuidString
        guard let value = ch.value else { return }
        if ch.uuid == CBUUID(string: service.infoUuid), infoReads.remove(id) != nil {
            if let error { events?.onInfoFailed(device: id, reason: error.localizedDescription) }
            else { events?.onInfo(device: id, value: value) }
            manager?.cancelPeripheralConnection(peripheral)
        } else if ch.uuid == CBUUID(string: service.notifyUuid) {
            events?.onNotification(device: id, value: value)
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor ch: CBCharacteristic, error: Error?) {
        if error != nil { manager?.cancelPeripheralConnection(peripheral) } else { events?.onReadyToWrite() }
    }

    func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral) {
        events?.onReadyToWrite()
    }

    private func fail(_ p: CBPeripheral, _ reason: String) {
        let id = p.identifier.uuidString
        if infoReads.remove(id) != nil { events?.onInfoFailed(device: id, reason: reason) }
        else { events?.onConnectFailed(device: id, reason: reason) }
        manager?.cancelPeripheralConnection(p)
    }
}
/// The system's Bluetooth prompt. iOS shows it only when the app creates its first
/// CoreBluetooth manager while the player has not answered yet, and the radios above are
/// created only once the gate (Rust's `bleReadiness`) says Bluetooth is ready, which needs
/// the answer: this asks first. `answered` runs on the main queue once the player has
/// answered a prompt shown by this call; not at all when the answer was already known.
final class BluetoothPermission: NSObject, CBCentralManagerDelegate {
    private var manager: CBCentralManager?
    private var answered: (() -> Void)?

    func request(answered: @escaping () -> Void) {
        guard CBManager.authorization == .notDetermined, manager == nil else { return }
        self.answered = answered
        // No power alert: the lobby's banner says when Bluetooth is off.
        manager = CBCentralManager(delegate: self, queue: .main,
                                   options: [CBCentralManagerOptionShowPowerAlertKey: false])
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        guard CBManager.authorization != .notDetermined else { return }
        let done = answered
        answered = nil
        manager = nil
        done?()
    }
}
#endif
