# demo-lib.sh — sourced by demo.sh and gtk-demo.sh: a work folder, the processes a demo starts
# (stopped by pid at exit), a private bus, and navd on it. Expects $bin (the binaries' folder) and
# $here (this folder).

# demo_begin NAME: a work folder /tmp/navd-NAME.XXXXXX, and the clean-up that stops, by pid, every
# process in `pids` and the private bus, then removes the folder.
demo_begin() {
    work=$(mktemp -d "/tmp/navd-$1.XXXXXX")
    pids=()
    bus_pid=""
    trap demo_cleanup EXIT INT TERM
}

demo_cleanup() {
    local status=$?
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [[ -n "$bus_pid" ]]; then kill -TERM "$bus_pid" 2>/dev/null || true; fi
    [[ -t 1 ]] && printf '\e[?25h' || true
    rm -rf "$work"
    exit "$status"
}

# demo_private_bus: a dbus-daemon of the demo's own (no service folders); sets address and bus_pid.
demo_private_bus() {
    { read -r address; read -r bus_pid; } < <(dbus-daemon --config-file="$here/private-bus.conf" --fork --print-address=1 --print-pid=1)
}

# demo_navd: navd --ephemeral on $address with the apps folder $work/apps, its log in
# $work/navd.log; returns once it answers (at most 5 s).
demo_navd() {
    mkdir -p "$work/apps"
    "$bin/navd" --ephemeral --address "$address" --apps-dir "$work/apps" 2>"$work/navd.log" &
    pids+=($!)
    for _ in $(seq 100); do
        "$bin/navctl" --address "$address" -q status 2>/dev/null && break
        sleep 0.05
    done
}
