#!/usr/bin/env bash
# activation-test.sh BIN_DIR — the path a user takes, under a real systemd user manager:
# install into a temporary home (PREFIX=$HOME/.local), daemon-reload, navd not running,
# a `busctl --user call … Push` starts it through D-Bus activation, `systemctl --user status`
# shows it active, `systemctl --user stop navd`, the next call starts it again with the state kept.
# XDG_DATA_HOME is set for the user manager because dbus-daemon finds the home directory in the
# password database (root's /root here), not in $HOME.
# Exit 0: passed; 1: failed; 77: cannot run here (the reason on stdout).
set -uo pipefail
bin=$1
repo="$(cd "$(dirname "$0")/../.." && pwd)"

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; [[ -f "$work/systemd.log" ]] && tail -30 "$work/systemd.log"; exit 1; }

[[ -x /lib/systemd/systemd ]] || skip "no /lib/systemd/systemd on this machine"
[[ -f /usr/lib/systemd/user/dbus.socket ]] || skip "dbus-user-session is not installed (no user bus socket unit)"
unshare -m --propagation private true 2>/dev/null || skip "unshare -m is not permitted here (needs CAP_SYS_ADMIN)"

work=$(mktemp -d /tmp/navd-activation.XXXXXX)
home="$work/home" rt="$work/run"
mkdir -p "$home" "$rt" && chmod 700 "$rt"
sd_pid=""
cleanup() {
    if [[ -n "$sd_pid" ]] && kill -0 "$sd_pid" 2>/dev/null; then
        kill -TERM "$sd_pid" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$sd_pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$sd_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

HOME="$home" bash "$repo/scripts/install.sh" install "$bin" "$home/.local" "" >/dev/null || fail "install.sh failed"
[[ -f "$home/.local/share/systemd/user/navd.service" ]] || fail "the unit was not installed under ~/.local/share/systemd/user"
grep -q "Exec=$home/.local/bin/navd" "$home/.local/share/dbus-1/services/org.navd.Navigator1.service" \
    || fail "the activation file does not name the installed navd"


unshare -m --propagation private sh -c "
    mount -t tmpfs tmpfs /run/systemd && mkdir -p /run/systemd/system &&
    exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME='$home' XDG_RUNTIME_DIR='$rt' XDG_DATA_HOME='$home/.local/share' \
        /lib/systemd/systemd --user --log-target=console --log-level=notice
" >"$work/systemd.log" 2>&1 &
sd_pid=$!

in_ns() { nsenter -t "$sd_pid" -m env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$home" XDG_RUNTIME_DIR="$rt" \
    DBUS_SESSION_BUS_ADDRESS="unix:path=$rt/bus" "$@"; }

for _ in $(seq 100); do
    state=$(in_ns systemctl --user is-system-running 2>/dev/null)
    [[ "$state" == running || "$state" == degraded ]] && break
    sleep 0.1
done
[[ "$state" == running || "$state" == degraded ]] || fail "the user manager did not come up (state: ${state:-none})"

verify=$(in_ns systemd-analyze verify --user "$home/.local/share/systemd/user/navd.service" 2>&1)
[[ -z "$verify" ]] || fail "systemd-analyze verify: $verify"

in_ns systemctl --user daemon-reload || fail "daemon-reload failed"
[[ "$(in_ns systemctl --user is-active navd)" != active ]] || fail "navd was running before the first call"

start=$(date +%s%N)
out=$(in_ns busctl --user call org.navd.Navigator1 /org/navd/Navigator1 org.navd.Navigator1 Push 'sa{sv}' orange 0 2>&1) \
    || fail "the first Push did not activate navd: $out"
end=$(date +%s%N)
echo "activation: first Push answered in $(( (end - start) / 1000000 )) ms: $out"
[[ "$out" == "ts 2 "* ]] || fail "unexpected answer to the first Push: $out"

status=$(in_ns systemctl --user status navd 2>&1)
grep -q "Active: active (running)" <<<"$status" || fail "systemctl --user status navd does not show it active: $status"
echo "status: $(grep 'Active:' <<<"$status" | sed 's/^ *//')"

in_ns systemctl --user stop navd || fail "systemctl --user stop navd failed"
[[ "$(in_ns systemctl --user is-active navd)" != active ]] || fail "navd still active after stop"

start=$(date +%s%N)
out=$(in_ns busctl --user call org.navd.Navigator1 /org/navd/Navigator1 org.navd.Navigator1 GetState 2>&1) \
    || fail "the call after stop did not activate navd again: $out"
end=$(date +%s%N)
echo "activation after stop: GetState answered in $(( (end - start) / 1000000 )) ms"
[[ "$out" == "tsa(sssa{sv}) 2 \"rainbow\" 2 "*"\"orange\""* ]] || fail "the state was not kept across the stop: $out"
echo "after stop and re-activation: $out"
[[ -f "$home/.local/state/navd/navd.sqlite3" ]] || fail "no state database in ~/.local/state/navd: $(find "$home" -name 'navd.sqlite3*')"
echo "PASS"
