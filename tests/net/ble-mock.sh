#!/usr/bin/env bash
# End-to-end Bluetooth LE test of banco-net's real stack code on a machine without Bluetooth:
# a private D-Bus system bus (dbus-daemon with its own config in a temporary directory,
# DBUS_SYSTEM_BUS_ADDRESS pointing at it) and a mock BlueZ on it (python-dbusmock's bluez5
# template extended with GATT server and LE advertising registration: ble-mock/banco_bluez.py,
# a test fixture). Then two `banco` processes built with the `ble` feature play a whole game:
#
#   banco host --ble   the bluer peripheral registers the Banco GATT application and its LE
#                      advertisement with the mock;
#   banco join --ble   the btleplug central scans for the service UUID, connects, reads the
#                      info characteristic (name, games, fingerprint), subscribes, and plays.
#
# Every frame crosses real D-Bus calls: the guest's fragments are WriteValue calls relayed by
# the mock to the host application's write characteristic, the host's are notifications
# (PropertiesChanged of Value) relayed back. The mock runs at the default ATT MTU (23),
# drops every 17th write without response (a full controller buffer) and disconnects once
# after 40 writes, the host coming back under another address (as a phone's rotating private
# address does): the guest must find it again by its key fingerprint, the match must resume,
# and both sides must print the same `result … fen …` line.
#
# Last line: `ble-mock: passed`, or `skipped: REASON` where it cannot run (not root, so it
# cannot install what it lacks). Provisions dbus-daemon, python3-dbusmock, libdbus-1-dev and
# pkg-config with apt when missing; `ble-mock.sh --provision` only does that (tests/run.sh
# runs it in the background while cargo compiles).
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
command -v dbus-daemon >/dev/null 2>&1 || need+=(dbus-daemon)
command -v dbus-send >/dev/null 2>&1 || need+=(dbus-bin)
/usr/bin/python3 -c 'import dbusmock, gi' >/dev/null 2>&1 || need+=(python3-dbusmock python3-gi)
pkg-config --exists dbus-1 2>/dev/null || need+=(libdbus-1-dev pkg-config)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "skipped: needs root to install ${need[*]}"
    exit 0
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ "${1:-}" = "--provision" ]; then
  echo "ble-mock: D-Bus, python-dbusmock and libdbus are installed"
  exit 0
fi

# BANCO_BLE_BIN may name a `banco` built with `--features ble` elsewhere.
bin="${BANCO_BLE_BIN:-}"
if [ -z "$bin" ]; then
  start=$(date +%s)
  # The test profile: the dependencies `cargo test --workspace` built are reused.
  cargo build -q --locked --profile test -p banco-cli --features ble
  echo "built banco with --features ble in $(( $(date +%s) - start )) s"
  target="$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
  bin="$target/debug/banco"
fi

tmp="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

cat >"$tmp/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$tmp/system_bus_socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
EOF
dbus-daemon --config-file="$tmp/bus.conf" --nofork --nopidfile --nosyslog 2>"$tmp/bus.log" &
pids+=($!)
export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$tmp/system_bus_socket"

/usr/bin/python3 -m dbusmock --system -t tests/net/ble-mock/banco_bluez.py \
  -p "{\"mtu\": 23, \"drop_every\": 17, \"cut_after\": 40, \"rotate\": true, \"stats\": \"$tmp/stats.json\"}" \
  >"$tmp/mock.log" 2>&1 &
pids+=($!)
up=""
for _ in $(seq 100); do
  if dbus-send --system --print-reply --dest=org.bluez /org/bluez/hci0 \
      org.freedesktop.DBus.Properties.Get string:org.bluez.Adapter1 string:Powered >/dev/null 2>&1; then
    up=1
    break
  fi
  sleep 0.1
done
if [ -z "$up" ]; then
  cat "$tmp/mock.log" >&2
  echo "ble-mock: the mock BlueZ did not come up" >&2
  exit 1
fi

common=(--ai 2 --yes --no-color --movetime 40)
"$bin" host --ble --name Alice "${common[@]}" </dev/null >"$tmp/host.out" 2>&1 &
host_pid=$!
pids+=($host_pid)
"$bin" join --ble Alice --browse-secs 20 "${common[@]}" </dev/null >"$tmp/guest.out" 2>&1 &
guest_pid=$!
pids+=($guest_pid)

status=0
for _ in $(seq 1800); do
  if ! kill -0 "$host_pid" 2>/dev/null && ! kill -0 "$guest_pid" 2>/dev/null; then break; fi
  sleep 0.1
done
wait "$guest_pid" || status=$?
wait "$host_pid" || status=$?

host_last="$(tail -n 1 "$tmp/host.out")"
guest_last="$(tail -n 1 "$tmp/guest.out")"
stats="$(cat "$tmp/stats.json" 2>/dev/null || echo '{}')"
fail() {
  echo "--- host"; tail -n 30 "$tmp/host.out"
  echo "--- guest"; tail -n 30 "$tmp/guest.out"
  echo "--- mock"; tail -n 30 "$tmp/mock.log"
  echo "--- mock stats $stats"
  echo "ble-mock: FAILED: $*" >&2
  exit 1
}
[ "$status" -eq 0 ] || fail "a process exited with $status"
case "$host_last" in result*) ;; *) fail "the host did not finish the game";; esac
[ "$host_last" = "$guest_last" ] || fail "the two sides disagree: '$host_last' vs '$guest_last'"
grep -q "found Alice over Bluetooth" "$tmp/guest.out" || fail "the guest did not read the host's info"
for key in connects notifications commands dropped cuts rotations; do
  n="$(echo "$stats" | sed -n "s/.*\"$key\": \([0-9]*\).*/\1/p")"
  [ "${n:-0}" -gt 0 ] || fail "the mock saw no $key"
done
connects="$(echo "$stats" | sed -n 's/.*"connects": \([0-9]*\).*/\1/p')"
[ "$connects" -ge 2 ] || fail "the guest did not reconnect after the cut (to the host's new address)"
echo "$host_last"
echo "mock: $stats"
echo "ble-mock: passed"
