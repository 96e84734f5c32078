#!/usr/bin/env bash
# activation-times.sh COUNT BIN_DIR... — navd's start through D-Bus activation, for navd-bench: each build in
# BIN_DIR is installed into a temporary home of its own (scripts/install.sh, PREFIX=$HOME/.local) under a real
# systemd user manager of its own (in its own mount namespace, as activation-test.sh boots one); then COUNT
# rounds, each taking the builds in turn (the first build first in even rounds, last in odd ones): stop navd
# (`systemctl --user stop navd`) and time, in microseconds, the `busctl --user call … GetState` that starts it
# again. One line per start: "activation BUILD_INDEX: answered in MICROSECONDS us". Each manager runs in a
# cgroup of its own (in every hierarchy systemd uses here, as deb-test.sh gives tester's): two managers in
# one cgroup would each see the other's navd in navd.service's cgroup, and a stop would wait for it.
# Exit 0: measured; 1: failed; 77: cannot run here (the reason on stdout).
set -uo pipefail
count=$1
shift
repo="$(cd "$(dirname "$0")/../.." && pwd)"

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
source "$repo/Tests/Scripts/systemd-user.sh"

[[ -x /lib/systemd/systemd ]] || skip "no /lib/systemd/systemd on this machine"
[[ -f /usr/lib/systemd/user/dbus.socket ]] || skip "dbus-user-session is not installed (no user bus socket unit)"
unshare -m --propagation private true 2>/dev/null || skip "unshare -m is not permitted here (needs CAP_SYS_ADMIN)"

work=$(mktemp -d /tmp/navd-activation-times.XXXXXX)
managers=() cgroups=()
cleanup() {
    for pid in "${managers[@]}"; do
        kill -TERM "$pid" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
    done
    for group in "${cgroups[@]}"; do find "$group" -depth -type d -exec rmdir {} + 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' TERM INT

# in_ns INDEX COMMAND… — runs COMMAND in build INDEX's user manager's namespace, with its bus.
in_ns() {
    local index=$1
    shift
    nsenter -t "${managers[$index]}" -m env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$work/$index/home" \
        XDG_RUNTIME_DIR="$work/$index/run" DBUS_SESSION_BUS_ADDRESS="unix:path=$work/$index/run/bus" "$@"
}

index=0
for bin in "$@"; do
    home="$work/$index/home" rt="$work/$index/run"
    mkdir -p "$home" "$rt" && chmod 700 "$rt"
    HOME="$home" bash "$repo/scripts/install.sh" install "$bin" "$home/.local" "" >/dev/null || fail "install.sh $bin failed"
    own=()
    for hierarchy in /sys/fs/cgroup/unified /sys/fs/cgroup/systemd /sys/fs/cgroup; do
        [[ -f "$hierarchy/cgroup.procs" ]] || continue
        group="$hierarchy/navd-activation-times-$$-$index"
        mkdir "$group" && cgroups+=("$group") && own+=("$group") || fail "cannot make the cgroup $group"
        [[ "$hierarchy" == /sys/fs/cgroup ]] && break  # a pure cgroup2 machine has that one only
    done
    unshare -m --propagation private sh -c "
        for group in ${own[*]}; do echo \$\$ >\"\$group/cgroup.procs\" || exit 1; done
        mount -t tmpfs tmpfs /run/systemd && mkdir -p /run/systemd/system &&
        exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME='$home' XDG_RUNTIME_DIR='$rt' XDG_DATA_HOME='$home/.local/share' \
            /lib/systemd/systemd --user --log-target=console --log-level=notice
    " >"$work/systemd-$index.log" 2>&1 &
    managers+=($!)
    wait_for_user_manager "the user manager for $bin" in_ns "$index"
    in_ns "$index" systemctl --user daemon-reload || fail "daemon-reload failed for $bin"
    # The first start, untimed: it creates the state, which every timed start then reads.
    out=$(in_ns "$index" busctl --user call org.navd.Navigator1 /org/navd/Navigator1 org.navd.Navigator1 Push 'sa{sv}' orange 0 2>&1) \
        || fail "the first Push did not activate $bin/navd: $out"
    index=$((index + 1))
done

builds=$#
for round in $(seq 0 $((count - 1))); do
    for step in $(seq 0 $((builds - 1))); do
        index=$(( round % 2 == 0 ? step : builds - 1 - step ))
        in_ns "$index" systemctl --user stop navd || fail "systemctl --user stop navd failed"
        start=$(date +%s%N)
        out=$(in_ns "$index" busctl --user call org.navd.Navigator1 /org/navd/Navigator1 org.navd.Navigator1 GetState 2>&1) \
            || fail "GetState did not activate navd ($index): $out"
        end=$(date +%s%N)
        [[ "$out" == "tsa(sssa{sv}) 2 "* ]] || fail "unexpected answer to GetState ($index): $out"
        echo "activation $index: answered in $(( (end - start) / 1000 )) us"
    done
done
