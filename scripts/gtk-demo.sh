#!/usr/bin/env bash
# gtk-demo.sh BIN_DIR [APP] — the GTK view on navd: a private bus, navd on the embedded demo graph
# (and Examples/gtk-view/mail.yaml as the app "mail"), and the window; with APP=mail the window
# follows that app. Needs a display (X11 or Wayland). Stops everything it started, by pid.
set -euo pipefail
bin=$1
app=${2:-}
here="$(cd "$(dirname "$0")" && pwd)"
view="$here/../Examples/gtk-view"
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
    echo "gtk-demo: no display (DISPLAY and WAYLAND_DISPLAY are unset); run it in a desktop session, or: xvfb-run make gtk-demo" >&2
    exit 1
fi
if [[ -n "$app" && "$app" != mail ]]; then
    echo "gtk-demo: APP is 'mail' (Examples/gtk-view/mail.yaml) or nothing (the demo graph), not '$app'" >&2
    exit 2
fi
work=$(mktemp -d /tmp/navd-gtk-demo.XXXXXX)
pids=()
bus_pid=""
cleanup() {
    local status=$?
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [[ -n "$bus_pid" ]]; then kill -TERM "$bus_pid" 2>/dev/null || true; fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT INT TERM

{ read -r address; read -r bus_pid; } < <(dbus-daemon --config-file="$here/private-bus.conf" --fork --print-address=1 --print-pid=1)
mkdir -p "$work/apps"
cp "$view/mail.yaml" "$work/apps/mail.yaml"
"$bin/navd" --ephemeral --address "$address" --apps-dir "$work/apps" 2>"$work/navd.log" &
pids+=($!)
for _ in $(seq 100); do
    "$bin/navctl" --address "$address" -q status 2>/dev/null && break
    sleep 0.05
done
echo "gtk-demo: navd is up on $address (pid ${pids[0]}); drive it from another terminal too:"
echo "  $bin/navctl --address '$address' ${app:+--app $app }${app:+send compose}${app:-push orange}"
echo "gtk-demo: close the window (or Ctrl+C) to stop"
/usr/bin/python3 "$view/gtk_view.py" --address "$address" ${app:+--app "$app"} &
pids+=($!)
wait "${pids[-1]}"
