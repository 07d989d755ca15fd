#!/usr/bin/env bash
# End-to-end mDNS test of banco-net inside two network namespaces joined by a veth pair:
# one namespace advertises `_banco._tcp.local.`, the other browses (twice, the first browser
# dropped: a lobby browsed again), resolves it, connects
# over TCP and exchanges a frame, then joins it by name, then again with IPv6 link-local
# addresses only. First, a host listening on every interface must list its veth address
# as the one a guest types. Prints the discovery time. Multicast never leaves the
# namespaces this script creates (nothing runs in the machine's own namespace but `ip`
# and cargo). Needs root; without it, says so and passes.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "$(id -u)" -ne 0 ]; then
  echo "skipped: needs root"
  exit 0
fi
if ! command -v ip >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iproute2
fi

# MDNS_PROBE_BIN may name a probe built elsewhere.
bin="${MDNS_PROBE_BIN:-}"
if [ -z "$bin" ]; then
  # The test profile and the whole workspace's feature unification (its output also goes to
  # target/debug): `cargo test --workspace` already built this example, so this is a no-op
  # there, not a second build of banco-net and its dependencies.
  cargo build -q --locked --profile test --workspace --example mdns_probe
  target="$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
  bin="$target/debug/examples/mdns_probe"
fi

ns_a="banco-mdns-a-$$"
ns_b="banco-mdns-b-$$"
adv_pid=""
cleanup() {
  if [ -n "$adv_pid" ]; then kill "$adv_pid" 2>/dev/null || true; wait "$adv_pid" 2>/dev/null || true; fi
  ip netns del "$ns_a" 2>/dev/null || true
  ip netns del "$ns_b" 2>/dev/null || true
}
trap cleanup EXIT

if ! ip netns add "$ns_a" 2>/dev/null; then
  echo "skipped: cannot create network namespaces here"
  exit 0
fi
ip netns add "$ns_b"
# The veth pair is created directly inside the namespaces.
ip -n "$ns_a" link add bnc-a type veth peer name bnc-b netns "$ns_b"
setup() { # namespace interface address
  ip -n "$1" link set lo up
  ip -n "$1" link set dev "$2" multicast on
  ip -n "$1" addr add "$3" dev "$2"
  ip -n "$1" link set dev "$2" up
}
setup "$ns_a" bnc-a 198.18.77.1/24
setup "$ns_b" bnc-b 198.18.77.2/24

# Wait until both ends have a usable (non-tentative) IPv6 link-local address: a daemon
# started before that misses the interface until its next periodic check (5 s).
for end in "$ns_a bnc-a" "$ns_b bnc-b"; do
  set -- $end
  for _ in $(seq 100); do
    if ip -n "$1" -6 addr show dev "$2" scope link -tentative | grep -q inet6; then break; fi
    sleep 0.1
  done
done

# A host listening on every interface tells a guest its veth address (never 0.0.0.0 or
# loopback while the namespace has a LAN address): what `banco host` prints as `join with:`.
reachable="$(ip netns exec "$ns_a" "$bin" reachable --port 7368)"
printf 'reachable: %s\n' $reachable
if [ "$(printf '%s\n' "$reachable" | head -n1)" != "198.18.77.1:7368" ] \
  || printf '%s\n' "$reachable" | grep -q -e '^127\.' -e '^0\.0\.0\.0' -e '^\[::1\]' -e '^\[fe80'; then
  echo "mdns-netns: a host on 0.0.0.0 lists $reachable, not 198.18.77.1:7368 first"
  exit 1
fi

name="Probe $$"
ip netns exec "$ns_a" "$bin" advertise --name "$name" --iface bnc-a --for 40 --guests 2 &
adv_pid=$!

status=0
# Cold: the browser starts together with the host (the time includes the host's probing).
# It browses twice and drops the first browser (a lobby browsed again): the second browse
# must still find the host that comes up after.
cold="$(ip netns exec "$ns_b" "$bin" browse --expect "$name" --iface bnc-b --timeout 20 --rebrowse)" || status=$?
printf '%s\n' "$cold"
# Warm: the host is already up, as when a player opens the list of games nearby; then join.
# (Two seconds later: a responder multicasts a record at most once a second, RFC 6762 6.)
warm=""
if [ "$status" -eq 0 ]; then
  sleep 2
  warm="$(ip netns exec "$ns_b" "$bin" browse --expect "$name" --iface bnc-b --timeout 20 --connect)" || status=$?
  printf '%s\n' "$warm"
fi
# What `banco join NAME` does: find the host by its name, connect, exchange a frame.
if [ "$status" -eq 0 ]; then
  ip netns exec "$ns_b" "$bin" join --name "$name" --iface bnc-b --timeout 20 || status=$?
fi
wait "$adv_pid" || status=$?
adv_pid=""

# IPv6 link-local only (no IPv4 on the link): join by name must still reach the host.
if [ "$status" -eq 0 ]; then
  ip -n "$ns_a" addr del 198.18.77.1/24 dev bnc-a
  ip -n "$ns_b" addr del 198.18.77.2/24 dev bnc-b
  ip netns exec "$ns_a" "$bin" advertise --name "$name v6" --iface bnc-a --for 30 &
  adv_pid=$!
  sleep 1
  ip netns exec "$ns_b" "$bin" join --name "$name v6" --iface bnc-b --timeout 20 || status=$?
  wait "$adv_pid" || status=$?
  adv_pid=""
fi
if [ "$status" -ne 0 ]; then
  echo "mdns-netns: FAILED"
  exit "$status"
fi
ms() { printf '%s\n' "$1" | sed -n 's/^discovery: resolved .* in \([0-9]*\) ms$/\1/p' | head -n1; }
echo "discovery time to a resolved peer: $(ms "$warm") ms with the host up, $(ms "$cold") ms when both start together"
echo "mdns-netns: passed"
