#!/usr/bin/env bash
# system-policy-test.sh BIN_DIR — a system-mode bus with dbus/org.navd.Navigator1.conf:
# root may own the name, an unprivileged user (nobody) may read (GetState, GetFlows, GetEvents, GetEventParams,
# Resolve, GetChanges, GetTreeAt, GetLimits, Export, properties, introspection, GetManagedObjects), on the
# default object and on an app's,
# and gets AccessDenied for the methods that change the tree and for Reload, on both.
# Exit 0: passed; 1: failed; 77: cannot run here (the reason on stdout).
set -uo pipefail
bin=$1
repo="$(cd "$(dirname "$0")/../.." && pwd)"
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

[[ $(id -u) -eq 0 ]] || skip "needs root to run the bus and to switch to the user nobody"
id nobody >/dev/null 2>&1 || skip "no user nobody"
command -v runuser >/dev/null || skip "no runuser"

work=$(mktemp -d /tmp/navd-policy.XXXXXX)
chmod 755 "$work"
bus_pid="" navd_pid=""
cleanup() {
    [[ -n "$navd_pid" ]] && kill -TERM "$navd_pid" 2>/dev/null && wait "$navd_pid" 2>/dev/null
    [[ -n "$bus_pid" ]] && kill -TERM "$bus_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

sed -e "s|@WORK@|$work|g" -e "s|@REPO@|$repo|g" "$repo/Tests/Fixtures/dbus/system-bus.conf" >"$work/system.conf"

{ read -r address; read -r bus_pid; } < <(dbus-daemon --config-file="$work/system.conf" --fork --print-address=1 --print-pid=1) \
    || fail "dbus-daemon did not start with the policy"
mkdir -p "$work/apps"
cp "$repo/Tests/Fixtures/apps/mail.yaml" "$work/apps/mail.yaml"
"$bin/navd" --address "$address" --ephemeral --apps-dir "$work/apps" 2>"$work/navd.log" &
navd_pid=$!
for _ in $(seq 100); do
    busctl --address="$address" call org.navd.Navigator1 /org/navd/Navigator1 org.navd.Navigator1 GetState >/dev/null 2>&1 && break
    sleep 0.05
done

as_nobody() { runuser -u nobody -- busctl --address="$address" "$@" 2>&1; }
call=(call org.navd.Navigator1 /org/navd/Navigator1 org.navd.Navigator1)

out=$(as_nobody "${call[@]}" Push 'sa{sv}' orange 0) && fail "nobody was allowed to Push: $out"
grep -qi "access denied\|AccessDenied" <<<"$out" || fail "Push as nobody failed, but not with AccessDenied: $out"
echo "Push as nobody: $out"
out=$(as_nobody "${call[@]}" Undo) && fail "nobody was allowed to Undo: $out"
out=$(as_nobody "${call[@]}" Send 'ssa{sv}t' '' next 0 0) && fail "nobody was allowed to Send: $out"
grep -qi "access denied\|AccessDenied" <<<"$out" || fail "Send as nobody failed, but not with AccessDenied: $out"
out=$(as_nobody "${call[@]}" SetFacts 'a{sv}' 1 signed-in b true) && fail "nobody was allowed to SetFacts: $out"
out=$(as_nobody "${call[@]}" GetFlows) || fail "nobody could not GetFlows: $out"
out=$(as_nobody "${call[@]}" GetEvents s '') || fail "nobody could not GetEvents: $out"
[[ "$out" == "a(ss) 4 \"next\" \"route\""* ]] || fail "unexpected GetEvents answer: $out"
out=$(as_nobody "${call[@]}" GetEventParams s '') || fail "nobody could not GetEventParams: $out"
[[ "$out" == "a(ssa{ss}) 4 \"next\" \"route\" 0"* ]] || fail "unexpected GetEventParams answer: $out"
out=$(as_nobody "${call[@]}" Resolve 'ssa{sv}' event next 0) || fail "nobody could not Resolve: $out"
echo "Resolve as nobody: $out"
# The devtools' readers, which the shipped file once left out (everyone reads what navd keeps).
out=$(as_nobody "${call[@]}" GetChanges tu 0 10) || fail "nobody could not GetChanges: $out"
[[ "$out" == "a(tsxsa{sv}) "* ]] || fail "unexpected GetChanges answer: $out"
out=$(as_nobody "${call[@]}" GetTreeAt t 0) || fail "nobody could not GetTreeAt: $out"
out=$(as_nobody "${call[@]}" GetLimits) || fail "nobody could not GetLimits: $out"
[[ "$out" == "a{su} 7 \"max-path-depth\" 128"* ]] || fail "unexpected GetLimits answer: $out"
# Nothing is kept yet: navd itself answers RevisionNotKept, which it does only once the bus let the call through.
out=$(as_nobody "${call[@]}" Export tb 0 true)
grep -qi "access denied\|AccessDenied" <<<"$out" && fail "nobody could not Export: $out"
out=$(as_nobody "${call[@]}" GetState) || fail "nobody could not GetState: $out"
[[ "$out" == "tsa(sssa{sv}) 1 \"rainbow\""* ]] || fail "unexpected GetState answer: $out"
echo "GetState as nobody: $out"
out=$(as_nobody get-property org.navd.Navigator1 /org/navd/Navigator1 org.navd.Navigator1 Revision) \
    || fail "nobody could not read Revision: $out"
out=$(as_nobody introspect org.navd.Navigator1 /org/navd/Navigator1) || fail "nobody could not introspect: $out"
out=$(as_nobody "${call[@]}" Reload) && fail "nobody was allowed to Reload: $out"
grep -qi "access denied\|AccessDenied" <<<"$out" || fail "Reload as nobody failed, but not with AccessDenied: $out"

# The apps: listed for everyone, read by everyone, changed and reloaded by the group only.
app=/org/navd/Navigator1/apps/mail
app_call=(call org.navd.Navigator1 "$app" org.navd.Navigator1)
out=$(as_nobody call org.navd.Navigator1 /org/navd/Navigator1 org.freedesktop.DBus.ObjectManager GetManagedObjects) \
    || fail "nobody could not GetManagedObjects: $out"
[[ "$out" == "a{oa{sa{sv}}} 1 \"$app\""* ]] || fail "unexpected GetManagedObjects answer: $out"
echo "GetManagedObjects as nobody: ${out:0:60}…"
out=$(as_nobody "${app_call[@]}" GetState) || fail "nobody could not GetState on the app: $out"
[[ "$out" == "tsa(sssa{sv}) 1 \"\" 1 "*"\"inbox\""* ]] || fail "unexpected GetState answer on the app: $out"
for reader in GetTree GetRoutes GetFlows; do
    out=$(as_nobody "${app_call[@]}" "$reader") || fail "nobody could not $reader on the app: $out"
done
out=$(as_nobody "${app_call[@]}" History u 5) || fail "nobody could not read the app's History: $out"
out=$(as_nobody get-property org.navd.Navigator1 "$app" org.navd.Navigator1 Top) || fail "nobody could not read the app's Top: $out"
[[ "$out" == 's "inbox"' ]] || fail "unexpected Top of the app: $out"
out=$(as_nobody introspect org.navd.Navigator1 "$app") || fail "nobody could not introspect the app: $out"
out=$(as_nobody "${app_call[@]}" Push 'sa{sv}' message 0) && fail "nobody was allowed to Push on the app: $out"
grep -qi "access denied\|AccessDenied" <<<"$out" || fail "Push on the app as nobody failed, but not with AccessDenied: $out"
out=$(as_nobody "${app_call[@]}" Reload) && fail "nobody was allowed to Reload the app: $out"
grep -qi "access denied\|AccessDenied" <<<"$out" || fail "Reload on the app as nobody failed, but not with AccessDenied: $out"
out=$(busctl --address="$address" "${app_call[@]}" GetState 2>&1)
[[ "$out" == "tsa(sssa{sv}) 1 "* ]] || fail "a refused call changed the app: $out"
echo "PASS"
