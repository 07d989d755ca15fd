'''A mock BlueZ for Banco's Bluetooth LE test (tests/net/ble-mock.sh): a test fixture,
never shipped.

python-dbusmock's bluez5 template (adapter hci0, devices, discovery) plus what a GATT
server and an LE advertiser use: the adapter's org.bluez.GattManager1 and
org.bluez.LEAdvertisingManager1. One mock serves both machines of a match:

* a peripheral (Banco's bluer host) registers its GATT application and advertisement; the
  mock reads them back from the application over D-Bus (GetManagedObjects, GetAll), as
  bluetoothd does;
* the central (Banco's btleplug guest) then sees a remote device (HOST_ADDR) advertising the
  registered service UUIDs and local name; Connect mirrors the application's services and
  characteristics under the device (serviceXXXX/charYYYY, with Flags and the ATT MTU);
* ReadValue (split in MTU-1 pieces with offsets, like ATT Read + Read Blob), WriteValue
  (refusing values longer than MTU-3), StartNotify and StopNotify on the device's
  characteristics are relayed to the application's, with the `device`, `mtu`, `type` and
  `offset` options bluetoothd passes; the application's notifications (PropertiesChanged of
  Value) come back as the device characteristic's notifications;
* disconnecting either side (Device1.Disconnect on the host device from the central, or on
  GUEST_DEV from the peripheral) stops the notification session and tells the central.

Parameters (JSON, `-p`): `mtu` (ATT MTU, default 23); `cut_after` (disconnect once after
that many writes, 0 never); `drop_every` (silently drop every Nth write without response, as
a full controller buffer does, 0 never); `rotate` (at the cut, the host's device also changes
address, as a phone's resolvable private address does: the old device object is removed and
the host reappears as ROTATED_ADDR, so a central that redials the old address never finds it
again and must look for the host's key fingerprint).

The mock logs every relayed operation count on exit to the file named by `stats` (if any).
'''

import json
from xml.etree import ElementTree

import dbus
import dbus.lowlevel
from gi.repository import GLib

from dbusmock import OBJECT_MANAGER_IFACE, mockobject
from dbusmock.templates import bluez5
# The bluez5 template's org.bluez.Mock methods (AddAdapter, AddDevice, …) come along.
from dbusmock.templates.bluez5 import *  # noqa: F401,F403 pylint: disable=wildcard-import,unused-wildcard-import

BUS_NAME = 'org.bluez'
MAIN_OBJ = '/'
SYSTEM_BUS = True
IS_OBJECT_MANAGER = True

ADAPTER_IFACE = 'org.bluez.Adapter1'
DEVICE_IFACE = 'org.bluez.Device1'
GATT_MANAGER_IFACE = 'org.bluez.GattManager1'
ADV_MANAGER_IFACE = 'org.bluez.LEAdvertisingManager1'
SERVICE_IFACE = 'org.bluez.GattService1'
CHAR_IFACE = 'org.bluez.GattCharacteristic1'
ADV_IFACE = 'org.bluez.LEAdvertisement1'

ADAPTER = '/org/bluez/hci0'
# The peripheral as the central sees it, and the central as the peripheral sees it.
HOST_ADDR = '00:BA:4C:00:00:01'
ROTATED_ADDR = '7A:BA:4C:00:00:03'
GUEST_ADDR = '00:BA:4C:00:00:02'


def _dev_path(addr):
    return ADAPTER + '/dev_' + addr.replace(':', '_')


GUEST_DEV = _dev_path(GUEST_ADDR)

STATE = {
    'senders': {},
    'app': None,
    'adv': None,
    'mtu': 23,
    'cut_after': 0,
    'drop_every': 0,
    'rotate': False,
    # The host's device as the central sees it now (its address rotates with `rotate`).
    'host_addr': HOST_ADDR,
    'host_dev': _dev_path(HOST_ADDR),
    'connected': False,
    'stats': {'connects': 0, 'disconnects': 0, 'reads': 0, 'writes': 0, 'commands': 0,
              'dropped': 0, 'notifications': 0, 'cuts': 0, 'subscribes': 0, 'rotations': 0},
    'stats_file': None,
    'bus': None,
}


def _bus():
    '''The mock's own connection (dbusmock makes a private one to DBUS_SYSTEM_BUS_ADDRESS).'''
    return STATE['bus']


def _remember_sender(_connection, message):
    '''Message filter: who registers what (the template's methods do not see senders).'''
    if message.get_member() in ('RegisterApplication', 'RegisterAdvertisement'):
        STATE['senders'][message.get_member()] = message.get_sender()
    return dbus.lowlevel.HANDLER_RESULT_NOT_YET_HANDLED


def _save_stats():
    if STATE['stats_file']:
        with open(STATE['stats_file'], 'w', encoding='utf-8') as f:
            json.dump(STATE['stats'], f)


def _changed(obj, iface, props):
    for k, v in props.items():
        obj.props[iface][k] = v
    obj.EmitSignal(dbus.PROPERTIES_IFACE, 'PropertiesChanged', 'sa{sv}as', [iface, props, []])


@dbus.service.method(dbus.INTROSPECTABLE_IFACE, in_signature='', out_signature='s',
                     path_keyword='object_path', connection_keyword='connection')
def _introspect(obj, object_path, connection):
    '''dbusmock's introspection with child <node>s last: it appends interfaces that have only
    properties after the children, which strict parsers (bluez-async's) refuse.'''
    tree = ElementTree.fromstring(mockobject.DBusMockObject.Introspect(obj, object_path, connection))
    for node in [n for n in tree if n.tag == 'node']:
        tree.remove(node)
        tree.append(node)
    return ElementTree.tostring(tree, encoding='unicode')


def _fix_introspection(obj):
    obj.methods.setdefault(dbus.INTROSPECTABLE_IFACE, {})['Introspect'] = ('', 's', '', _introspect)


def _fail(name, text):
    return dbus.exceptions.DBusException(text, name='org.bluez.Error.' + name)


def RegisterApplication(_adapter, app_path, _options):
    sender = STATE['senders'].get('RegisterApplication')
    app = _bus().get_object(sender, app_path, introspect=False)
    objects = app.GetManagedObjects(dbus_interface=OBJECT_MANAGER_IFACE)
    services = sorted((str(p), ifs[SERVICE_IFACE]) for p, ifs in objects.items() if SERVICE_IFACE in ifs)
    chars = sorted((str(p), ifs[CHAR_IFACE]) for p, ifs in objects.items() if CHAR_IFACE in ifs)
    if not services:
        raise _fail('InvalidArguments', 'the application has no service')
    STATE['app'] = {'sender': sender, 'path': str(app_path), 'services': services, 'chars': chars}
    _bus().add_signal_receiver(_app_properties_changed, signal_name='PropertiesChanged',
                               dbus_interface=dbus.PROPERTIES_IFACE, bus_name=sender,
                               path_keyword='path')
    _publish_host()


def UnregisterApplication(_adapter, _app_path):
    _disconnect()
    STATE['app'] = None


def RegisterAdvertisement(_adapter, adv_path, _options):
    sender = STATE['senders'].get('RegisterAdvertisement')
    adv = _bus().get_object(sender, adv_path, introspect=False)
    props = adv.GetAll(ADV_IFACE, dbus_interface=dbus.PROPERTIES_IFACE)
    if str(props.get('Type', '')) != 'peripheral':
        raise _fail('InvalidArguments', 'only connectable (peripheral) advertisements are mocked')
    STATE['adv'] = {'uuids': [str(u) for u in props.get('ServiceUUIDs', [])],
                    'name': str(props.get('LocalName', ''))}
    _publish_host()


def UnregisterAdvertisement(_adapter, _adv_path):
    STATE['adv'] = None


def _publish_host():
    '''Once the peripheral has both an application and an advertisement, the central can
    discover it: the two device objects appear.'''
    if not STATE['app'] or not STATE['adv'] or STATE['host_dev'] in mockobject.objects:
        return
    root = mockobject.objects['/']
    if GUEST_DEV not in mockobject.objects:
        bluez5.AddDevice(root, 'hci0', GUEST_ADDR, 'banco guest')
        guest = mockobject.objects[GUEST_DEV]
        guest.AddMethods(DEVICE_IFACE, [('Disconnect', '', '', lambda _dev: _disconnect())])
    bluez5.AddDevice(root, 'hci0', STATE['host_addr'], STATE['adv']['name'])
    host = mockobject.objects[STATE['host_dev']]
    _fix_introspection(host)
    host.AddMethods(DEVICE_IFACE, [
        ('Connect', '', '', _connect),
        ('Disconnect', '', '', lambda _dev: _disconnect()),
    ])
    _changed(host, DEVICE_IFACE, {
        'UUIDs': dbus.Array(STATE['adv']['uuids'], signature='s', variant_level=1),
        'AddressType': dbus.String('random', variant_level=1),
    })


def _connect(dev):
    if STATE['app'] is None:
        raise _fail('Failed', 'le-connection-abort-by-local')
    if STATE['connected']:
        raise _fail('AlreadyConnected', 'Already Connected')
    STATE['connected'] = True
    STATE['stats']['connects'] += 1
    _mirror_gatt(dev)
    _changed(dev, DEVICE_IFACE, {'Connected': dbus.Boolean(True, variant_level=1)})
    _changed(dev, DEVICE_IFACE, {'ServicesResolved': dbus.Boolean(True, variant_level=1)})
    _save_stats()


def _disconnect():
    if not STATE['connected']:
        return
    STATE['connected'] = False
    STATE['stats']['disconnects'] += 1
    for path in list(mockobject.objects):
        obj = mockobject.objects[path]
        if path.startswith(STATE['host_dev'] + '/') and getattr(obj, 'notifying', False):
            obj.notifying = False
            try:
                _app_char(obj).StopNotify(dbus_interface=CHAR_IFACE)
            except dbus.exceptions.DBusException:
                pass
            _changed(obj, CHAR_IFACE, {'Notifying': dbus.Boolean(False, variant_level=1)})
    dev = mockobject.objects.get(STATE['host_dev'])
    if dev is not None:
        _changed(dev, DEVICE_IFACE, {'ServicesResolved': dbus.Boolean(False, variant_level=1),
                                     'Connected': dbus.Boolean(False, variant_level=1)})
    _save_stats()


def _mirror_gatt(dev):
    '''The application's services and characteristics as the central sees them.'''
    root = mockobject.objects['/']
    dev_path = STATE['host_dev']
    if dev_path + '/service0010' in mockobject.objects:
        return
    handle = 0x10
    service_paths = {}
    for app_path, props in STATE['app']['services']:
        path = f'{dev_path}/service{handle:04x}'
        handle += 1
        service_paths[app_path] = path
        sprops = {
            'UUID': dbus.String(props['UUID'], variant_level=1),
            'Primary': dbus.Boolean(props.get('Primary', True), variant_level=1),
            'Device': dbus.ObjectPath(dev_path, variant_level=1),
            'Includes': dbus.Array([], signature='o', variant_level=1),
            'Handle': dbus.UInt16(handle - 1, variant_level=1),
        }
        dev.AddObject(path, SERVICE_IFACE, sprops, [])
        _fix_introspection(mockobject.objects[path])
        root.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesAdded', 'oa{sa{sv}}',
                        [dbus.ObjectPath(path), {SERVICE_IFACE: sprops}])
    for app_path, props in STATE['app']['chars']:
        service = service_paths.get(str(props['Service']))
        if service is None:
            continue
        path = f'{service}/char{handle:04x}'
        handle += 1
        flags = [str(f) for f in props.get('Flags', [])]
        cprops = {
            'UUID': dbus.String(props['UUID'], variant_level=1),
            'Service': dbus.ObjectPath(service, variant_level=1),
            'Value': dbus.Array([], signature='y', variant_level=1),
            'Flags': dbus.Array(flags, signature='s', variant_level=1),
            'MTU': dbus.UInt16(STATE['mtu'], variant_level=1),
            'Handle': dbus.UInt16(handle - 1, variant_level=1),
        }
        if 'notify' in flags or 'indicate' in flags:
            cprops['Notifying'] = dbus.Boolean(False, variant_level=1)
        dev.AddObject(path, CHAR_IFACE, cprops, [
            ('ReadValue', 'a{sv}', 'ay', _read_value),
            ('WriteValue', 'aya{sv}', '', _write_value),
            ('StartNotify', '', '', _start_notify),
            ('StopNotify', '', '', _stop_notify),
        ])
        obj = mockobject.objects[path]
        _fix_introspection(obj)
        obj.app_char = app_path
        obj.notifying = False
        root.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesAdded', 'oa{sa{sv}}',
                        [dbus.ObjectPath(path), {CHAR_IFACE: cprops}])


def _app_char(obj):
    return _bus().get_object(STATE['app']['sender'], obj.app_char, introspect=False)


def _options(**extra):
    options = {'device': dbus.ObjectPath(GUEST_DEV), 'mtu': dbus.UInt16(STATE['mtu']),
               'link': dbus.String('LE')}
    options.update(extra)
    return dbus.Dictionary(options, signature='sv')


def _require_connected():
    if not STATE['connected']:
        raise _fail('NotConnected', 'Not Connected')


def _read_value(obj, options):
    '''A long read: ATT Read, then Read Blob at growing offsets while pieces are full.'''
    _require_connected()
    piece = STATE['mtu'] - 1
    offset = int(options.get('offset', 0))
    value = []
    while True:
        got = _app_char(obj).ReadValue(_options(offset=dbus.UInt16(offset)), dbus_interface=CHAR_IFACE)
        STATE['stats']['reads'] += 1
        value.extend(got[:piece])
        offset += piece
        if len(got) < piece or offset > 512:
            break
    return dbus.Array(value, signature='y')


def _write_value(obj, value, options):
    _require_connected()
    kind = str(options.get('type', 'request'))
    if len(value) > STATE['mtu'] - 3:
        raise _fail('InvalidValueLength', f'{len(value)} bytes do not fit an ATT MTU of {STATE["mtu"]}')
    stats = STATE['stats']
    stats['writes'] += 1
    if kind == 'command':
        stats['commands'] += 1
        if STATE['drop_every'] and stats['commands'] % STATE['drop_every'] == 0:
            stats['dropped'] += 1
            return
    _app_char(obj).WriteValue(dbus.Array(value, signature='y'), _options(type=dbus.String(kind), offset=dbus.UInt16(0)),
                              dbus_interface=CHAR_IFACE)
    if STATE['cut_after'] and stats['writes'] == STATE['cut_after']:
        stats['cuts'] += 1
        GLib.timeout_add(20, _cut)


def _cut():
    '''The link drops (and, with `rotate`, the host comes back under a new address).'''
    _disconnect()
    if STATE['rotate']:
        _rotate()
    return False


def _rotate():
    '''The host's device object (and its mirrored GATT) goes; the host reappears as a new
    device, ROTATED_ADDR, advertising the same service.'''
    old = STATE['host_dev']
    root = mockobject.objects['/']
    adapter = mockobject.objects[ADAPTER]
    for path in sorted((p for p in list(mockobject.objects) if p.startswith(old + '/')), reverse=True):
        ifaces = list(mockobject.objects[path].props.keys())
        adapter.RemoveObject(path)
        root.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesRemoved', 'oas', [dbus.ObjectPath(path), ifaces])
    bluez5.RemoveDevice(adapter, old)
    STATE['host_addr'] = ROTATED_ADDR
    STATE['host_dev'] = _dev_path(ROTATED_ADDR)
    STATE['stats']['rotations'] += 1
    _publish_host()
    _save_stats()


def _start_notify(obj):
    _require_connected()
    if obj.notifying:
        return
    _app_char(obj).StartNotify(dbus_interface=CHAR_IFACE)
    obj.notifying = True
    STATE['stats']['subscribes'] += 1
    _changed(obj, CHAR_IFACE, {'Notifying': dbus.Boolean(True, variant_level=1)})


def _stop_notify(obj):
    if not obj.notifying:
        return
    obj.notifying = False
    try:
        _app_char(obj).StopNotify(dbus_interface=CHAR_IFACE)
    except dbus.exceptions.DBusException:
        pass
    _changed(obj, CHAR_IFACE, {'Notifying': dbus.Boolean(False, variant_level=1)})


def _app_properties_changed(interface, changed, _invalidated, path=None):
    '''A notification from the application: relay it to the central if it subscribed.'''
    if interface != CHAR_IFACE or 'Value' not in changed or not STATE['connected']:
        return
    for obj_path, obj in list(mockobject.objects.items()):
        if obj_path.startswith(STATE['host_dev'] + '/') and getattr(obj, 'app_char', None) == str(path):
            if obj.notifying:
                if len(changed['Value']) > STATE['mtu'] - 3:
                    return  # too long for one notification: lost, as a stack would refuse it
                STATE['stats']['notifications'] += 1
                _changed(obj, CHAR_IFACE, {'Value': dbus.Array(changed['Value'], signature='y', variant_level=1)})
            return


def load(mock, parameters):
    bluez5.load(mock, parameters)
    STATE['bus'] = mock.connection
    STATE['mtu'] = int(parameters.get('mtu', 23))
    STATE['cut_after'] = int(parameters.get('cut_after', 0))
    STATE['drop_every'] = int(parameters.get('drop_every', 0))
    STATE['rotate'] = bool(parameters.get('rotate', False))
    STATE['stats_file'] = parameters.get('stats') or None
    # dbusmock registers the main object only after load(); the template's helpers need it.
    mockobject.objects['/'] = mock
    bluez5.AddAdapter(mock, 'hci0', 'banco-mock')
    adapter = mockobject.objects[ADAPTER]
    adapter.AddMethods(GATT_MANAGER_IFACE, [
        ('RegisterApplication', 'oa{sv}', '', RegisterApplication),
        ('UnregisterApplication', 'o', '', UnregisterApplication),
    ])
    adapter.AddMethods(ADV_MANAGER_IFACE, [
        ('RegisterAdvertisement', 'oa{sv}', '', RegisterAdvertisement),
        ('UnregisterAdvertisement', 'o', '', UnregisterAdvertisement),
    ])
    adapter.AddProperties(ADV_MANAGER_IFACE, {
        'ActiveInstances': dbus.Byte(0, variant_level=1),
        'SupportedInstances': dbus.Byte(4, variant_level=1),
        'SupportedIncludes': dbus.Array(['local-name'], signature='s', variant_level=1),
    })
    _bus().add_message_filter(_remember_sender)
