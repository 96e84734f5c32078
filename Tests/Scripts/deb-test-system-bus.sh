# Part 4 of deb-test.sh (sourced; uses its root, work, uid, outsider_uid, cgroups, sys_pid, fail):
# navd on the system bus of the clean root, started through D-Bus activation by a real systemd
# system instance, the way a kiosk would run it.
#
# Why a real systemd rather than dbus-daemon's launch helper: the activation file names
# SystemdService=navd.service, and on a systemd machine (every Debian 12 install) dbus-daemon runs
# with --systemd-activation and hands activation to systemd, which starts the unit with its sandbox
# (PrivateUsers, PrivateNetwork, the system-call filter…). Only a real systemd can tell whether that
# sandbox lets navd start and serve; the launch helper would run Exec= without any of it.
#
# systemd runs as PID 1 of its own PID namespace, in a mount namespace (a fresh sysfs, /dev bound,
# tmpfs on /run) and a cgroup namespace rooted in a cgroup of its own in every hierarchy, so that
# what it creates stays under cgroups this script removes. $container tells it that it is a
# container's init (no kernel command line, no hardware). Its console is a file ($work/system.log).
# The root is made the mount namespace's own root with pivot_root (onto the root's empty /mnt), not
# chroot: the kernel refuses a user namespace to a chrooted process, so under chroot every unit
# with PrivateUsers=yes fails with 217/USER, and systemd's mount sandboxing (226/NAMESPACE) wants
# its root to be a mount point.

# system_bus_test — boots the system instance, drives navd through it, powers it off.
system_bus_test() {
    unshare --pid --fork --cgroup --mount true 2>/dev/null || {
        echo "skip: the system bus part: unshare --pid --cgroup is not permitted here"
        return 0
    }
    local activation="$root/usr/share/dbus-1/system-services/org.navd.Navigator1.service"
    grep -qx "User=navd" "$activation" && grep -qx "SystemdService=navd.service" "$activation" \
        || fail "the system activation file names no User=navd or SystemdService=navd.service: $(cat "$activation")"
    # The bus's own configuration reads the folder the package's policy is in (relative to itself).
    grep -q "<includedir>system.d</includedir>" "$root/usr/share/dbus-1/system.conf" \
        || fail "the root's /usr/share/dbus-1/system.conf does not read /usr/share/dbus-1/system.d"
    # The package puts no one in group navd: the administrator does, as here.
    in_root usermod -aG navd tester || fail "usermod -aG navd tester"

    # A cgroup of its own in every hierarchy (cgroup v1 controllers too: systemd makes its slices
    # in each). cpuset wants its cpus and mems before it takes a process.
    local hierarchies=() hierarchy group system_groups=()
    if [[ -f /sys/fs/cgroup/cgroup.procs ]]; then hierarchies=(/sys/fs/cgroup); else hierarchies=(/sys/fs/cgroup/*); fi
    for hierarchy in "${hierarchies[@]}"; do
        [[ -f "$hierarchy/cgroup.procs" ]] || continue
        group="$hierarchy/navd-debtest-system-$$"
        mkdir "$group" || fail "cannot make the cgroup $group"
        cgroups+=("$group")
        system_groups+=("$group")
        if [[ -f "$group/cpuset.cpus" ]]; then
            cat "$hierarchy/cpuset.cpus" >"$group/cpuset.cpus" && cat "$hierarchy/cpuset.mems" >"$group/cpuset.mems"
        fi
    done
    : >"$work/system.log"
    # The inner shell is PID 1 until it execs systemd; its arguments: root, console file, cgroups.
    unshare -m --propagation private bash -c '
        root=$1 console=$2; shift 2
        for group in "$@"; do echo $$ >"$group/cgroup.procs" || exit 1; done
        mount --bind "$root" "$root" || exit 1
        exec unshare --pid --fork --cgroup --mount-proc="$root/proc" bash -c "
            mount -t sysfs sysfs \"\$0/sys\" && mount --rbind /dev \"\$0/dev\" && mount --bind \"\$1\" \"\$0/dev/console\" &&
            mount -t tmpfs -o mode=755 tmpfs \"\$0/run\" && cd \"\$0\" && pivot_root . mnt && umount -l /mnt &&
            exec env -i container=navd-debtest PATH=/usr/sbin:/usr/bin:/sbin:/bin \
                /lib/systemd/systemd --unit=multi-user.target --log-target=console --log-level=notice" "$root" "$console"
    ' system-boot "$root" "$work/system.log" "${system_groups[@]}" >>"$work/system.log" 2>&1 &
    local launcher=$!
    for _ in $(seq 100); do
        sys_pid=$(cat "/proc/$launcher/task/$launcher/children" 2>/dev/null | awk '{ print $1 }')
        [[ -n "$sys_pid" && "$(cat "/proc/$sys_pid/comm" 2>/dev/null)" == systemd ]] && break
        sys_pid=""
        sleep 0.1
    done
    [[ -n "$sys_pid" ]] || fail "systemd did not start as PID 1 in the root: $(tail -5 "$work/system.log")"

    local state=""
    for _ in $(seq 600); do
        state=$(in_system systemctl is-system-running 2>/dev/null)
        [[ "$state" == running || "$state" == degraded ]] && break
        sleep 0.1
    done
    [[ "$state" == running || "$state" == degraded ]] || fail "the system manager did not come up (state: ${state:-none}): $(tail -10 "$work/system.log")"
    echo "system: systemd $(in_system systemctl --version | awk 'NR == 1 { print $2 }') is PID 1 in the root ($state$(
        [[ "$state" == degraded ]] && echo ": failed $(in_system systemctl --failed --plain --no-legend | awk '{ print $1 }' | tr '\n' ' ')"))"
    [[ "$(in_system systemctl is-active dbus)" == active ]] || fail "the system bus (dbus.service) is not running in the root"
    [[ "$(in_system systemctl is-enabled navd 2>&1)" != enabled ]] || fail "the system unit navd.service is enabled"
    [[ "$(in_system systemctl is-active navd)" != active ]] || fail "navd.service was running before the first call"

    # tester, in group navd: the first call activates navd.service.
    local out expected="2 push rainbow: red > orange"
    out=$(as_user "$uid" navctl --system push orange 2>&1) || fail "navctl --system push orange as tester (group navd): $out
$(in_system journalctl -u navd -u dbus --no-pager -n 20)"
    [[ "$out" == "$expected" ]] || fail "unexpected answer on the system bus: $out"
    echo "system: tester (groups $(as_user "$uid" id -Gn | tr ' ' ,)) navctl --system push orange → $out"
    [[ "$(in_system systemctl is-active navd)" == active ]] || fail "navd.service is not active after the call"
    # dbus-daemon logs through journald, which may write the line a moment later.
    local handed=""
    for _ in $(seq 50); do
        in_system journalctl -u dbus --no-pager | grep -q "Activating via systemd: service name='org.navd.Navigator1' unit='navd.service'" \
            && handed=yes && break
        sleep 0.1
    done
    [[ -n "$handed" ]] || fail "the system bus did not hand the activation to systemd: $(in_system journalctl -u dbus --no-pager | tail -5)"
    echo "system: the system bus handed the activation to systemd (SystemdService=navd.service, not its launch helper)"
    local main_pid navd_uid
    main_pid=$(in_system systemctl show -P MainPID navd)
    navd_uid=$(in_root id -u navd)
    [[ "$main_pid" -gt 0 ]] || fail "navd.service has no main process"
    # Seen from the root's PID namespace: the process runs as navd, in a user namespace of its own
    # (PrivateUsers=yes: only navd's uid and root are mapped, not the identity map of every uid).
    local status_uid uid_map
    status_uid=$(in_system awk '/^Uid:/ { print $2 }' "/proc/$main_pid/status")
    uid_map=$(in_system cat "/proc/$main_pid/uid_map" | awk '{ print $1 "-" $2 "-" $3 }' | tr '\n' ' ')
    [[ "$status_uid" == "$navd_uid" ]] || fail "navd runs as uid $status_uid, not navd ($navd_uid)"
    [[ "$uid_map" != "0-0-4294967295 " ]] || fail "navd runs without a user namespace of its own (PrivateUsers=yes)"
    # PrivateNetwork=yes: a network namespace of its own; SystemCallFilter=: seccomp filter mode (2).
    local net_ns init_net_ns seccomp
    net_ns=$(in_system readlink "/proc/$main_pid/ns/net")
    init_net_ns=$(in_system readlink /proc/1/ns/net)
    seccomp=$(in_system awk '/^Seccomp:/ { print $2 }' "/proc/$main_pid/status")
    [[ -n "$net_ns" && "$net_ns" != "$init_net_ns" ]] || fail "navd shares the system's network namespace (PrivateNetwork=yes)"
    [[ "$seccomp" == 2 ]] || fail "navd runs without a system-call filter (Seccomp: $seccomp)"
    echo "system: navd.service active, main PID $main_pid as uid $status_uid (navd), uid map $uid_map(PrivateUsers), network namespace $net_ns (PID 1: $init_net_ns), Seccomp $seccomp (filter)"

    # Everyone may read; outside group navd, a change is refused by the shipped policy. (Debian's
    # system.conf denies every method call that no policy allows: the read going through shows
    # that the bus read the package's policy.)
    out=$(as_user "$outsider_uid" navctl --system state 2>&1) || fail "navctl --system state as outsider: $out"
    [[ "$out" == "2 state rainbow: red > orange" ]] || fail "unexpected state for outsider: $out"
    out=$(as_user "$outsider_uid" navctl --system push yellow 2>&1) && fail "outsider (not in group navd) was allowed to push: $out"
    grep -qi "access\|denied\|not allowed" <<<"$out" || fail "outsider's push failed, but not as a refusal: $out"
    echo "system: outsider (groups $(as_user "$outsider_uid" id -Gn | tr ' ' ,)) navctl --system push yellow → refused: $out"
    out=$(as_user "$uid" navctl --system state 2>&1)
    [[ "$out" == "2 state rainbow: red > orange" ]] || fail "the refused push changed the state: $out"

    local security
    security=$(in_system systemd-analyze security navd.service --no-pager 2>&1 | grep -i "overall exposure")
    echo "system: systemd-analyze security on the running unit: ${security:-no figure}"
    in_system systemctl stop navd || fail "systemctl stop navd"
    local owner
    owner=$(in_root stat -c '%U:%G %a' /var/lib/navd 2>/dev/null)
    [[ "$owner" == "navd:navd 700" ]] || fail "/var/lib/navd is '$owner', not navd:navd 700"
    [[ -f "$root/var/lib/navd/navd.sqlite3" ]] || fail "no state database in /var/lib/navd: $(ls -A "$root/var/lib/navd")"
    echo "system: state in /var/lib/navd ($owner): $(ls "$root/var/lib/navd" | tr '\n' ' ')"

    kill -s SIGRTMIN+4 "$sys_pid"
    for _ in $(seq 200); do kill -0 "$sys_pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$sys_pid" 2>/dev/null && fail "the system manager did not power off"
    sys_pid=""
    wait "$launcher" 2>/dev/null
}

# in_system COMMAND… — runs COMMAND as root in the system instance's namespaces.
in_system() { nsenter -t "$sys_pid" -m -p -r -w env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }

# as_user UID COMMAND… — runs COMMAND as that user (with the groups the root's database gives it)
# in the system instance's namespaces, where navctl --system finds the root's system bus.
as_user() {
    local user_uid=$1
    shift
    nsenter -t "$sys_pid" -m -p -r -w setpriv --reuid="$user_uid" --regid="$user_uid" --init-groups \
        env -i PATH=/usr/bin:/bin HOME=/ "$@"
}
