#!/usr/bin/env bash
# demo.sh BIN_DIR — the navd tour: navd on the embedded demo graph, navwatch following a
# scripted series of navctl calls. Uses the session bus when there is one and no navd owns
# the name there yet; otherwise a private bus. Stops everything it started, by pid.
set -euo pipefail
bin=$1
here="$(cd "$(dirname "$0")" && pwd)"
delay=${NAVD_DEMO_DELAY:-}
work=$(mktemp -d /tmp/navd-demo.XXXXXX)
pids=()
bus_pid=""

cleanup() {
    local status=$?
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [[ -n "$bus_pid" ]]; then kill -TERM "$bus_pid" 2>/dev/null || true; fi
    [[ -t 1 ]] && printf '\e[?25h' || true
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT INT TERM

if [[ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ]] \
   && busctl --user status >/dev/null 2>&1 \
   && ! busctl --user status org.navd.Navigator1 >/dev/null 2>&1; then
    address=$DBUS_SESSION_BUS_ADDRESS
    echo "demo: using your session bus ($address)"
else
    { read -r address; read -r bus_pid; } < <(dbus-daemon --config-file="$here/private-bus.conf" --fork --print-address=1 --print-pid=1)
    echo "demo: started a private bus at $address (pid $bus_pid)"
fi
export DBUS_SESSION_BUS_ADDRESS=$address

"$bin/navd" --ephemeral --address "$address" 2>"$work/navd.log" &
pids+=($!)
for _ in $(seq 100); do
    "$bin/navctl" --address "$address" -q status 2>/dev/null && break
    sleep 0.05
done
echo "demo: navd is up (pid ${pids[0]}); attach from another terminal with: navwatch --address '$address'"

nav() {
    if [[ -n "$delay" ]]; then sleep "$delay"; fi
    echo "\$ navctl $*"
    "$bin/navctl" --address "$address" "$@"
}

tour() {
    nav state
    nav push orange
    nav push yellow
    nav push green
    nav present modal --sheet
    nav push blue
    nav dismiss
    nav tab news
    nav open /news/7
    nav tab profile
    nav present login --cover
    nav push forgot-password
    nav back
    nav dismiss --all
    nav open end
    nav undo
    nav undo
    nav redo
    nav open root
    nav history -n 5
    nav tree
}

if [[ -t 1 && -t 0 ]]; then
    delay=${delay:-0.7}
    "$bin/navwatch" --address "$address" &
    pids+=($!)
    tour >"$work/tour.log" 2>&1
    sleep 1.5
    kill -TERM "${pids[1]}"; wait "${pids[1]}" 2>/dev/null || true
    cat "$work/tour.log"
else
    "$bin/navwatch" --address "$address" --lines > >(sed -u 's/^/navwatch| /') &
    pids+=($!)
    sleep 0.3
    tour
    sleep 0.5
fi
echo "demo: done; stopping navd, navwatch and the bus"
