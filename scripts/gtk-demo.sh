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
source "$here/demo-lib.sh"
demo_begin gtk-demo
demo_private_bus
mkdir -p "$work/apps"
cp "$view/mail.yaml" "$work/apps/mail.yaml"
demo_navd
echo "gtk-demo: navd is up on $address (pid ${pids[0]}); drive it from another terminal too:"
if [[ -n "$app" ]]; then try="--app $app send compose"; else try="push orange"; fi
echo "  $bin/navctl --address '$address' $try"
echo "gtk-demo: close the window (or Ctrl+C) to stop"
/usr/bin/python3 "$view/gtk_view.py" --address "$address" ${app:+--app "$app"} &
pids+=($!)
wait "${pids[-1]}"
