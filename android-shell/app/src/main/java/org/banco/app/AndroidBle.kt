// Bluetooth LE for Banco on Android: the platform half of the FFI's foreign traits. The host
// is AndroidBlePeripheral (BluetoothGattServer + BluetoothLeAdvertiser), the guest
// AndroidBleCentral (BluetoothLeScanner + BluetoothGatt). They only move ATT values and report
// callbacks; fragmentation, the session, pairing and resume are Rust's (banco-net ble::hub).
//
// Rules both follow (see the BlePeripheral/BleCentral docs in the bindings):
// * methods return at once; results come back through the events object Rust handed over;
// * one GATT operation in flight per connection (Android drops a second one): notify/write
//   answer `false` ("busy") while one is pending, and call onReadyToNotify/onReadyToWrite
//   from its completion callback, so Rust sends the next fragment;
// * permissions are checked before a match starts (core's BleGate, from Rust's
//   bleReadiness), hence the MissingPermission suppressions.
package org.banco.app

import android.annotation.SuppressLint
import android.bluetooth.BluetoothAdapter
import android.bluetooth.BluetoothDevice
import android.bluetooth.BluetoothGatt
import android.bluetooth.BluetoothGattCallback
import android.bluetooth.BluetoothGattCharacteristic
import android.bluetooth.BluetoothGattDescriptor
import android.bluetooth.BluetoothGattServer
import android.bluetooth.BluetoothGattServerCallback
import android.bluetooth.BluetoothGattService
import android.bluetooth.BluetoothManager
import android.bluetooth.BluetoothProfile
import android.bluetooth.BluetoothStatusCodes
import android.bluetooth.le.AdvertiseCallback
import android.bluetooth.le.AdvertiseData
import android.bluetooth.le.AdvertiseSettings
import android.bluetooth.le.ScanCallback
import android.bluetooth.le.ScanFilter
import android.bluetooth.le.ScanResult
import android.bluetooth.le.ScanSettings
import android.content.BroadcastReceiver
import android.content.Context
import android.content.Intent
import android.content.IntentFilter
import android.os.Build
import android.os.ParcelUuid
import java.util.UUID
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicBoolean
import org.banco.BleAdapterState
import org.banco.BleAdvertisement
import org.banco.BleCentral
import org.banco.BleCentralEvents
import org.banco.BleException
import org.banco.BlePeripheral
import org.banco.BlePeripheralEvents
import org.banco.BleService

/** The Client Characteristic Configuration descriptor (enables notifications). */
private val CCCD: UUID = UUID.fromString("00002902-0000-1000-8000-00805f9b34fb")

/** The largest ATT MTU a central asks for. */
private const val MAX_MTU = 517

fun adapterState(state: Int): BleAdapterState = when (state) {
    BluetoothAdapter.STATE_ON -> BleAdapterState.ON
    BluetoothAdapter.STATE_TURNING_ON, BluetoothAdapter.STATE_TURNING_OFF -> BleAdapterState.RESETTING
    else -> BleAdapterState.OFF
}

/** Reports adapter on/off to [onState] while registered. */
class AdapterWatch(private val context: Context, private val onState: (BleAdapterState) -> Unit) {
    private val receiver = object : BroadcastReceiver() {
        override fun onReceive(c: Context, intent: Intent) {
            onState(adapterState(intent.getIntExtra(BluetoothAdapter.EXTRA_STATE, BluetoothAdapter.STATE_OFF)))
        }
    }
    private val registered = AtomicBoolean(false)

    fun register() {
        if (registered.compareAndSet(false, true)) {
            context.registerReceiver(receiver, IntentFilter(BluetoothAdapter.ACTION_STATE_CHANGED))
            // The state now: the broadcast only tells of changes, and a gate that assumed
            // "on" would never offer to turn Bluetooth on.
            val adapter = (context.getSystemService(Context.BLUETOOTH_SERVICE) as? android.bluetooth.BluetoothManager)?.adapter
            onState(if (adapter == null) BleAdapterState.UNSUPPORTED else adapterState(adapter.state))
        }
    }

    fun unregister() {
        if (registered.compareAndSet(true, false)) context.unregisterReceiver(receiver)
    }
}

@SuppressLint("MissingPermission")
class AndroidBlePeripheral(private val context: Context) : BlePeripheral {
    private val manager = context.getSystemService(BluetoothManager::class.java)
    @Volatile private var events: BlePeripheralEvents? = null
    @Volatile private var server: BluetoothGattServer? = null
    @Volatile private var notifyChar: BluetoothGattCharacteristic? = null
    @Volatile private var info = ByteArray(0)
    @Volatile private var uuids: BleService? = null
    private val subscribed = ConcurrentHashMap<String, BluetoothDevice>()
    private val mtus = ConcurrentHashMap<String, Int>()
    private val notifying = AtomicBoolean(false)
    private val watch = AdapterWatch(context) { state -> events?.onAdapterState(state) }

    private val advertiseCallback = object : AdvertiseCallback() {
        override fun onStartFailure(errorCode: Int) {
            events?.onAdapterState(
                if (errorCode == ADVERTISE_FAILED_FEATURE_UNSUPPORTED) BleAdapterState.UNSUPPORTED else BleAdapterState.RESETTING
            )
        }
    }

    private val callback = object : BluetoothGattServerCallback() {
        override fun onConnectionStateChange(device: BluetoothDevice, status: Int, newState: Int) {
            if (newState == BluetoothProfile.STATE_DISCONNECTED) {
                mtus.remove(device.address)
                if (subscribed.remove(device.address) != null) events?.onUnsubscribed(device.address)
            }
        }

        override fun onMtuChanged(device: BluetoothDevice, mtu: Int) {
            mtus[device.address] = mtu
            events?.onMtuChanged(device.address, mtu.toUShort())
        }

        override fun onCharacteristicReadRequest(
            device: BluetoothDevice, requestId: Int, offset: Int, characteristic: BluetoothGattCharacteristic,
        ) {
            val s = server ?: return
            if (characteristic.uuid.toString() != uuids?.infoUuid) {
                s.sendResponse(device, requestId, BluetoothGatt.GATT_READ_NOT_PERMITTED, offset, null)
                return
            }
            val value = info
            val from = offset.coerceIn(0, value.size)
            s.sendResponse(device, requestId, BluetoothGatt.GATT_SUCCESS, offset, value.copyOfRange(from, value.size))
        }

        override fun onCharacteristicWriteRequest(
            device: BluetoothDevice, requestId: Int, characteristic: BluetoothGattCharacteristic,
            preparedWrite: Boolean, responseNeeded: Boolean, offset: Int, value: ByteArray?,
        ) {
            val ok = characteristic.uuid.toString() == uuids?.writeUuid && !preparedWrite && value != null
            if (ok) events?.onWrite(device.address, value!!)
            if (responseNeeded) {
                server?.sendResponse(
                    device, requestId, if (ok) BluetoothGatt.GATT_SUCCESS else BluetoothGatt.GATT_WRITE_NOT_PERMITTED, offset, null,
                )
            }
        }

        override fun onDescriptorWriteRequest(
            device: BluetoothDevice, requestId: Int, descriptor: BluetoothGattDescriptor,
            preparedWrite: Boolean, responseNeeded: Boolean, offset: Int, value: ByteArray?,
        ) {
            val isCccd = descriptor.uuid == CCCD && descriptor.characteristic.uuid.toString() == uuids?.notifyUuid
            if (isCccd && value != null) {
                if (value.contentEquals(BluetoothGattDescriptor.ENABLE_NOTIFICATION_VALUE)) {
                    subscribed[device.address] = device
                    events?.onSubscribed(device.address, (mtus[device.address] ?: 23).toUShort())
                } else if (subscribed.remove(device.address) != null) {
                    events?.onUnsubscribed(device.address)
                }
            }
            if (responseNeeded) {
                server?.sendResponse(
                    device, requestId, if (isCccd) BluetoothGatt.GATT_SUCCESS else BluetoothGatt.GATT_WRITE_NOT_PERMITTED, offset, null,
                )
            }
        }

        override fun onNotificationSent(device: BluetoothDevice, status: Int) {
            notifying.set(false)
            events?.onReadyToNotify()
        }
    }

    override fun start(advertisement: BleAdvertisement, events: BlePeripheralEvents) {
        val adapter = manager?.adapter ?: throw BleException.Unsupported("this phone has no Bluetooth")
        this.events = events
        watch.register()
        if (!adapter.isEnabled) throw BleException.Off("Bluetooth is off")
        val advertiser = adapter.bluetoothLeAdvertiser
            ?: throw BleException.Unsupported("this phone cannot advertise over Bluetooth LE")
        closeServer(advertiser)
        val service = advertisement.service
        uuids = service
        info = advertisement.info
        val s = manager.openGattServer(context, callback) ?: throw BleException.Failed("cannot open the GATT server")
        val gattService = BluetoothGattService(UUID.fromString(service.serviceUuid), BluetoothGattService.SERVICE_TYPE_PRIMARY)
        gattService.addCharacteristic(
            BluetoothGattCharacteristic(
                UUID.fromString(service.writeUuid),
                BluetoothGattCharacteristic.PROPERTY_WRITE or BluetoothGattCharacteristic.PROPERTY_WRITE_NO_RESPONSE,
                BluetoothGattCharacteristic.PERMISSION_WRITE,
            ),
        )
        val notify = BluetoothGattCharacteristic(
            UUID.fromString(service.notifyUuid), BluetoothGattCharacteristic.PROPERTY_NOTIFY, 0,
        )
        notify.addDescriptor(
            BluetoothGattDescriptor(CCCD, BluetoothGattDescriptor.PERMISSION_READ or BluetoothGattDescriptor.PERMISSION_WRITE),
        )
        gattService.addCharacteristic(notify)
        gattService.addCharacteristic(
            BluetoothGattCharacteristic(
                UUID.fromString(service.infoUuid), BluetoothGattCharacteristic.PROPERTY_READ,
                BluetoothGattCharacteristic.PERMISSION_READ,
            ),
        )
        if (!s.addService(gattService)) {
            s.close()
            throw BleException.Failed("cannot add the Banco service")
        }
        server = s
        notifyChar = notify
        val settings = AdvertiseSettings.Builder()
            .setAdvertiseMode(AdvertiseSettings.ADVERTISE_MODE_LOW_LATENCY)
            .setTxPowerLevel(AdvertiseSettings.ADVERTISE_TX_POWER_MEDIUM)
            .setConnectable(true)
            .build()
        // The 128-bit UUID fills the advertisement; Android cannot set a custom local name
        // (the lobby shows the info characteristic's name anyway).
        val data = AdvertiseData.Builder().addServiceUuid(ParcelUuid(UUID.fromString(service.serviceUuid))).build()
        val scanResponse = AdvertiseData.Builder().setIncludeDeviceName(false).build()
        advertiser.startAdvertising(settings, data, scanResponse, advertiseCallback)
    }

    override fun notify(central: String, value: ByteArray): Boolean {
        val device = subscribed[central] ?: throw BleException.Failed("$central is not subscribed")
        val s = server ?: throw BleException.Failed("the GATT server is closed")
        val ch = notifyChar ?: throw BleException.Failed("the GATT server is closed")
        if (!notifying.compareAndSet(false, true)) return false
        val queued = if (Build.VERSION.SDK_INT >= 33) {
            s.notifyCharacteristicChanged(device, ch, false, value) == BluetoothStatusCodes.SUCCESS
        } else {
            @Suppress("DEPRECATION")
            ch.value = value
            @Suppress("DEPRECATION")
            s.notifyCharacteristicChanged(device, ch, false)
        }
        if (!queued) notifying.set(false) // busy: Rust tries again shortly
        return queued
    }

    override fun disconnect(central: String) {
        val device = subscribed.remove(central) ?: return
        server?.cancelConnection(device)
    }

    override fun stop() {
        manager?.adapter?.bluetoothLeAdvertiser?.let { closeServer(it) }
        watch.unregister()
    }

    private fun closeServer(advertiser: android.bluetooth.le.BluetoothLeAdvertiser) {
        runCatching { advertiser.stopAdvertising(advertiseCallback) }
        server?.close()
        server = null
        subscribed.clear()
        notifying.set(false)
    }
}

@SuppressLint("MissingPermission")
class AndroidBleCentral(private val context: Context) : BleCentral {
    private val manager = context.getSystemService(BluetoothManager::class.java)
    @Volatile private var events: BleCentralEvents? = null
    @Volatile private var uuids: BleService? = null
    private val links = ConcurrentHashMap<String, BluetoothGatt>()
    private val linked = ConcurrentHashMap<String, Boolean>()
    private val mtus = ConcurrentHashMap<String, Int>()
    private val writing = ConcurrentHashMap<String, AtomicBoolean>()
    private val watch = AdapterWatch(context) { state -> events?.onAdapterState(state) }

    private val scanCallback = object : ScanCallback() {
        override fun onScanResult(callbackType: Int, result: ScanResult) {
            events?.onDiscovered(result.device.address, result.scanRecord?.deviceName)
        }

        override fun onScanFailed(errorCode: Int) {
            events?.onAdapterState(BleAdapterState.RESETTING)
        }
    }

    override fun start(events: BleCentralEvents) {
        this.events = events
        val adapter = manager?.adapter ?: throw BleException.Unsupported("this phone has no Bluetooth")
        watch.register()
        events.onAdapterState(if (adapter.isEnabled) BleAdapterState.ON else BleAdapterState.OFF)
    }

    override fun scan(service: BleService) {
        uuids = service
        val scanner = manager?.adapter?.bluetoothLeScanner ?: throw BleException.Off("Bluetooth is off")
        val filter = ScanFilter.Builder().setServiceUuid(ParcelUuid(UUID.fromString(service.serviceUuid))).build()
        val settings = ScanSettings.Builder().setScanMode(ScanSettings.SCAN_MODE_LOW_LATENCY).build()
        scanner.startScan(listOf(filter), settings, scanCallback)
    }

    override fun stopScan() {
        runCatching { manager?.adapter?.bluetoothLeScanner?.stopScan(scanCallback) }
    }

    private fun device(address: String): BluetoothDevice {
        val adapter = manager?.adapter ?: throw BleException.Unsupported("this phone has no Bluetooth")
        if (!adapter.isEnabled) throw BleException.Off("Bluetooth is off")
        return runCatching { adapter.getRemoteDevice(address) }.getOrElse { throw BleException.Failed("no device $address") }
    }

    private fun service(gatt: BluetoothGatt) = uuids?.let { gatt.getService(UUID.fromString(it.serviceUuid)) }

    override fun readInfo(device: String) {
        val uuidInfo = uuids?.infoUuid ?: ""
        device(device).connectGatt(context, false, object : BluetoothGattCallback() {
            override fun onConnectionStateChange(gatt: BluetoothGatt, status: Int, newState: Int) {
                when (newState) {
                    BluetoothProfile.STATE_CONNECTED -> gatt.discoverServices()
                    BluetoothProfile.STATE_DISCONNECTED -> {
                        gatt.close()
                        events?.onInfoFailed(device, "disconnected (GATT status $status)")
                    }
                }
            }

            override fun onServicesDiscovered(gatt: BluetoothGatt, status: Int) {
                val ch = service(gatt)?.getCharacteristic(UUID.fromString(uuidInfo))
                if (ch == null || !gatt.readCharacteristic(ch)) {
                    events?.onInfoFailed(device, "not a Banco host")
                    gatt.disconnect()
                }
            }

            // Long values are read with Read Blob by Android itself.
            @Deprecated("API < 33")
            override fun onCharacteristicRead(gatt: BluetoothGatt, characteristic: BluetoothGattCharacteristic, status: Int) {
                @Suppress("DEPRECATION")
                infoRead(gatt, characteristic.value ?: ByteArray(0), status)
            }

            override fun onCharacteristicRead(gatt: BluetoothGatt, characteristic: BluetoothGattCharacteristic, value: ByteArray, status: Int) =
                infoRead(gatt, value, status)

            private fun infoRead(gatt: BluetoothGatt, value: ByteArray, status: Int) {
                if (status == BluetoothGatt.GATT_SUCCESS) events?.onInfo(device, value)
                else events?.onInfoFailed(device, "GATT status $status")
                gatt.disconnect()
            }
        }, BluetoothDevice.TRANSPORT_LE)
    }

    override fun connect(device: String) {
        val busy = writing.getOrPut(device) { AtomicBoolean(false) }
        busy.set(false)
        linked[device] = false
        mtus.remove(device)
        val gatt = device(device).connectGatt(context, false, object : BluetoothGattCallback() {
            override fun onConnectionStateChange(gatt: BluetoothGatt, status: Int, newState: Int) {
                when (newState) {
                    BluetoothProfile.STATE_CONNECTED -> if (!gatt.requestMtu(MAX_MTU)) gatt.discoverServices()
                    BluetoothProfile.STATE_DISCONNECTED -> {
                        gatt.close()
                        links.remove(device, gatt)
                        if (linked.remove(device) == true) events?.onDisconnected(device)
                        else events?.onConnectFailed(device, "GATT status $status")
                    }
                }
            }

            override fun onMtuChanged(gatt: BluetoothGatt, mtu: Int, status: Int) {
                if (status == BluetoothGatt.GATT_SUCCESS) mtus[device] = mtu
                events?.onMtuChanged(device, mtu.toUShort())
                gatt.discoverServices()
            }

            override fun onServicesDiscovered(gatt: BluetoothGatt, status: Int) {
                val ids = uuids
                val notify = ids?.let { service(gatt)?.getCharacteristic(UUID.fromString(it.notifyUuid)) }
                val cccd = notify?.getDescriptor(CCCD)
                if (notify == null || cccd == null || !gatt.setCharacteristicNotification(notify, true)) {
                    events?.onConnectFailed(device, "not a Banco host")
                    gatt.disconnect()
                    return
                }
                val enable = BluetoothGattDescriptor.ENABLE_NOTIFICATION_VALUE
                val started = if (Build.VERSION.SDK_INT >= 33) {
                    gatt.writeDescriptor(cccd, enable) == BluetoothStatusCodes.SUCCESS
                } else {
                    @Suppress("DEPRECATION")
                    cccd.value = enable
                    @Suppress("DEPRECATION")
                    gatt.writeDescriptor(cccd)
                }
                if (!started) {
                    events?.onConnectFailed(device, "cannot subscribe")
                    gatt.disconnect()
                }
            }

            override fun onDescriptorWrite(gatt: BluetoothGatt, descriptor: BluetoothGattDescriptor, status: Int) {
                if (status != BluetoothGatt.GATT_SUCCESS) {
                    events?.onConnectFailed(device, "subscribing failed (GATT status $status)")
                    gatt.disconnect()
                    return
                }
                linked[device] = true
                // The MTU of onMtuChanged; 23 when the host refused the exchange.
                events?.onConnected(device, (mtus[device] ?: 23).toUShort())
            }

            @Deprecated("API < 33")
            override fun onCharacteristicChanged(gatt: BluetoothGatt, characteristic: BluetoothGattCharacteristic) {
                @Suppress("DEPRECATION")
                characteristic.value?.let { events?.onNotification(device, it) }
            }

            override fun onCharacteristicChanged(gatt: BluetoothGatt, characteristic: BluetoothGattCharacteristic, value: ByteArray) {
                events?.onNotification(device, value)
            }

            override fun onCharacteristicWrite(gatt: BluetoothGatt, characteristic: BluetoothGattCharacteristic, status: Int) {
                busy.set(false)
                if (status == BluetoothGatt.GATT_SUCCESS) events?.onReadyToWrite() else gatt.disconnect()
            }
        }, BluetoothDevice.TRANSPORT_LE)
        links[device] = gatt
    }

    override fun write(device: String, value: ByteArray, withResponse: Boolean): Boolean {
        val gatt = links[device] ?: throw BleException.Failed("not connected to $device")
        val ch = uuids?.let { service(gatt)?.getCharacteristic(UUID.fromString(it.writeUuid)) }
            ?: throw BleException.Failed("$device has no Banco write characteristic")
        val busy = writing.getOrPut(device) { AtomicBoolean(false) }
        if (!busy.compareAndSet(false, true)) return false
        val type = if (withResponse) BluetoothGattCharacteristic.WRITE_TYPE_DEFAULT else BluetoothGattCharacteristic.WRITE_TYPE_NO_RESPONSE
        val queued = if (Build.VERSION.SDK_INT >= 33) {
            gatt.writeCharacteristic(ch, value, type) == BluetoothStatusCodes.SUCCESS
        } else {
            @Suppress("DEPRECATION")
            ch.writeType = type
            @Suppress("DEPRECATION")
            ch.value = value
            @Suppress("DEPRECATION")
            gatt.writeCharacteristic(ch)
        }
        if (!queued) busy.set(false)
        return queued
    }

    override fun disconnect(device: String) {
        links.remove(device)?.disconnect()
    }
}
