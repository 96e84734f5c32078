#!/usr/bin/env bash
# demo.sh BIN_DIR — the navd tour: navd on the embedded demo graph, navwatch following a
# scripted series of navctl calls, mostly events that navd's handlers turn into changes. Uses the session bus when there is one and no navd owns
# the name there yet; otherwise a private bus. Stops everything it started, by pid.
set -euo pipefail
bin=$1
here="$(cd "$(dirname "$0")" && pwd)"
delay=${NAVD_DEMO_DELAY:-}
source "$here/demo-lib.sh"
demo_begin demo

if [[ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ]] \
   && busctl --user status >/dev/null 2>&1 \
   && ! busctl --user status org.navd.Navigator1 >/dev/null 2>&1; then
    address=$DBUS_SESSION_BUS_ADDRESS
    echo "demo: using your session bus ($address)"
else
    demo_private_bus
    echo "demo: started a private bus at $address (pid $bus_pid)"
fi
export DBUS_SESSION_BUS_ADDRESS=$address

demo_navd
echo "demo: navd is up (pid ${pids[0]}); attach from another terminal with: navwatch --address '$address'"

nav() {
    if [[ -n "$delay" ]]; then sleep "$delay"; fi
    echo "\$ navctl $*"
    "$bin/navctl" --address "$address" "$@"
}

say() {
    echo "# $*"
}

# The story as the coordinator pattern tells it: screens report what happened (events), navd decides.
tour() {
    nav state
    say "rainbow: each colour's next pushes the next one; the tab handles show-modal and root"
    nav events
    nav send next
    nav send next
    nav resolve event show-modal
    nav send show-modal
    nav send close
    nav send root
    say "profile: account needs signed-in, so navd starts the auth flow and keeps the request"
    nav tab profile
    nav send account
    nav flows
    nav send forgot-password
    nav send sent
    nav send succeeded
    nav facts
    nav send logout
    say "news: a call that fails, is retried, and succeeds"
    nav tab news
    nav send call
    nav send failed message=timeout
    nav send retry
    nav send succeeded
    say "the classic calls still work"
    nav tab rainbow
    nav push orange
    nav undo
    nav history -n 5
    nav tree
    say "apps: a second app joins the same navd: drop its route file in the apps folder and reload"
    cat >"$work/apps/shop.yaml" <<'YAML'
root: catalog
routes:
  catalog:
    title: Catalog
    on:
      open-item: {push: item, params: {id: $event.id}}
  item:
    title: Item
    params:
      id: {type: int}
    presentations: [push]
  cart:
    title: Cart
    presentations: [push, sheet]
YAML
    nav reload
    nav apps
    nav --app shop send open-item id=7
    nav --app shop present cart --sheet
    say "the route file changes under it: the cart may no longer be a sheet; reload repairs the tree live"
    sed -i 's/presentations: \[push, sheet\]/presentations: [push]/' "$work/apps/shop.yaml"
    nav --app shop reload
    nav --app shop state
    nav --app shop history -n 3
    say "the default navigator was never touched"
    nav status
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
