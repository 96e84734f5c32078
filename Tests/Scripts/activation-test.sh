#!/usr/bin/env bash
# activation-test.sh BIN_DIR — the path a user takes, under a real systemd user manager:
# install into a temporary home (PREFIX=$HOME/.local), daemon-reload, navd not running,
# a `busctl --user call … Push` starts it through D-Bus activation, `systemctl --user status`
# shows it active, `systemctl --user stop navd`, the next call starts it again with the state kept.
# With two apps in ~/.config/navd/apps: `systemctl --user reload navd` (the unit's ExecReload=)
# makes an edited app file take effect, fails for a broken one (which changes nothing), and the
# state of every app and of the default navigator survives `systemctl --user restart navd`.
# XDG_DATA_HOME is set for the user manager because dbus-daemon finds the home directory in the
# password database (root's /root here), not in $HOME.
# Exit 0: passed; 1: failed; 77: cannot run here (the reason on stdout).
set -uo pipefail
bin=$1
repo="$(cd "$(dirname "$0")/../.." && pwd)"

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; [[ -f "$work/systemd.log" ]] && tail -30 "$work/systemd.log"; exit 1; }
source "$repo/Tests/Scripts/systemd-user.sh"

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

# Two apps with graphs of their own, in place before navd first starts: the route files the Swift
# tests use (Tests/Fixtures/apps/); `write_shop integer` gives the product's sku a type that does
# not exist, `write_mail LINE` adds a line to mail's routes.
apps="$home/.config/navd/apps"
fixtures="$repo/Tests/Fixtures/apps"
mkdir -p "$apps"
write_shop() {
    sed "s/sku: { type: int,/sku: { type: ${1:-int},/" "$fixtures/shop.yaml" >"$apps/shop.yaml"
    grep -q "sku: { type: ${1:-int}," "$apps/shop.yaml" || fail "$fixtures/shop.yaml no longer declares sku as { type: int, … }"
}
write_mail() {
    { cat "$fixtures/mail.yaml"; printf '%s' "${1:-}"; } >"$apps/mail.yaml"
}
write_shop
write_mail

unshare -m --propagation private sh -c "
    mount -t tmpfs tmpfs /run/systemd && mkdir -p /run/systemd/system &&
    exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME='$home' XDG_RUNTIME_DIR='$rt' XDG_DATA_HOME='$home/.local/share' \
        /lib/systemd/systemd --user --log-target=console --log-level=notice
" >"$work/systemd.log" 2>&1 &
sd_pid=$!

in_ns() { nsenter -t "$sd_pid" -m env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$home" XDG_RUNTIME_DIR="$rt" \
    DBUS_SESSION_BUS_ADDRESS="unix:path=$rt/bus" "$@"; }

wait_for_user_manager "the user manager" in_ns

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

# The apps: each at its own object, each with its own revisions.
app_call() { local app=$1; shift; in_ns busctl --user call org.navd.Navigator1 "/org/navd/Navigator1/apps/$app" org.navd.Navigator1 "$@" 2>&1; }
out=$(app_call shop Push 'sa{sv}' product 1 sku x 7) || fail "Push on the shop app failed: $out"
[[ "$out" == "ts 2 "* ]] || fail "unexpected answer to the shop's Push: $out"
out=$(app_call mail Push 'sa{sv}' message 1 id s m1) || fail "Push on the mail app failed: $out"
[[ "$out" == "ts 2 "* ]] || fail "unexpected answer to the mail's Push: $out"
out=$(app_call mail Push 'sa{sv}' archive 0) && fail "mail knew 'archive' before its file said so: $out"

# systemctl --user reload: an edited file takes effect once the command returns.
write_mail '  archive: {}'
in_ns systemctl --user reload navd || fail "systemctl --user reload navd failed: $(in_ns journalctl --user -u navd -n 5 2>&1)"
out=$(app_call mail Push 'sa{sv}' archive 0) || fail "the edited mail file did not take effect on reload: $out"
[[ "$out" == "ts 3 "* ]] || fail "unexpected answer to Push archive after the reload: $out"
echo "reload: the edited mail app pushes archive: $out"

# A broken file: the reload fails and changes nothing; navd keeps running.
write_shop integer
out=$(in_ns systemctl --user reload navd 2>&1) && fail "systemctl --user reload navd succeeded with a broken shop file: $out"
echo "reload with a broken file fails: $(head -1 <<<"$out")"
[[ "$(in_ns systemctl --user is-active navd)" == active ]] || fail "navd is not active after a refused reload"
out=$(app_call shop Push 'sa{sv}' reviews 0) || fail "the shop lost its graph on a refused reload: $out"
[[ "$out" == "ts 3 "* ]] || fail "unexpected answer to the shop's Push after the refused reload: $out"
write_shop

# systemctl --user restart: every app's state, and the default's, comes back.
in_ns systemctl --user restart navd || fail "systemctl --user restart navd failed"
out=$(app_call shop GetState) || fail "GetState on the shop after the restart failed: $out"
[[ "$out" == "tsa(sssa{sv}) 3 \"browse\" 3 "*"\"product\""*"\"reviews\""* ]] || fail "the shop's state did not survive the restart: $out"
out=$(app_call mail GetState) || fail "GetState on mail after the restart failed: $out"
[[ "$out" == "tsa(sssa{sv}) 3 \"\" 3 "*"\"message\""*"\"archive\""* ]] || fail "mail's state did not survive the restart: $out"
out=$(in_ns busctl --user call org.navd.Navigator1 /org/navd/Navigator1 org.navd.Navigator1 GetState 2>&1)
[[ "$out" == "tsa(sssa{sv}) 2 \"rainbow\" 2 "*"\"orange\""* ]] || fail "the default navigator's state did not survive the restart: $out"
for app in shop mail; do
    [[ -f "$home/.local/state/navd/apps/$app/navd.sqlite3" ]] || fail "no state database for $app in ~/.local/state/navd/apps"
done
echo "after restart: shop at 3, mail at 3, the default at 2"
echo "PASS"
