#!/usr/bin/env bash
# deb-test.sh DEB [COCKPIT_DEB] — the package (and cockpit-navd beside it) on a clean Debian 12 root, as a user would have it (`make deb-test`,
# part of `make check-long`):
#  1. debootstrap a minimal bookworm root with what the test itself needs (systemd, dbus and
#     dbus-user-session: a user manager with its user bus) and a user `tester`; list its files;
#  2. `apt-get install ./navd_….deb` there: apt pulls what the package's Depends name; every
#     library the binaries link must come from a package named there (dpkg-shlibdeps' work);
#  3. boot a real `systemd --user` for `tester` (uid 1000, not root) in that root and run
#     `navctl push orange`: D-Bus activation starts navd.service, which was not enabled;
#  4. boot a real systemd system instance in that root (PID 1 of its own PID, mount and cgroup
#     namespaces, as a container manager would): its system bus reads the package's policy, and
#     `navctl --system push orange` by tester (added to group navd) activates navd.service, sandbox
#     and all, as user navd with its state in /var/lib/navd; a user outside group navd is refused a
#     change by the shipped policy; `systemd-analyze security navd.service` rates the running unit;
#  5. `apt-get remove --purge navd` and `apt-get autoremove --purge`, then list the files again: the
#     lists must be equal but for tester's home (navd's state there is the user's data: kept).
# debootstrap's downloads are kept in $NAVD_DEBTEST_CACHE (default .build-debtest/) between runs.
# Exit 0: passed; 1: failed; 77: cannot run here (the reason on stdout).
set -uo pipefail
deb=$(realpath "$1")
# The Cockpit page's package, installed beside navd when given (make deb-test gives it).
cockpit_deb=${2:+$(realpath "$2")}
repo="$(cd "$(dirname "$0")/../.." && pwd)"
mirror=${NAVD_DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${NAVD_DEBTEST_CACHE:-$repo/.build-debtest}
uid=1000
outsider_uid=1001

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; [[ -s "${work:-}/systemd.log" ]] && tail -30 "$work/systemd.log"; exit 1; }
source "$repo/Tests/Scripts/systemd-user.sh"
source "$repo/Tests/Scripts/deb-test-system-bus.sh"

[[ $(id -u) -eq 0 ]] || skip "needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || skip "no debootstrap (make deb-test installs it)"
unshare -m --propagation private true 2>/dev/null || skip "unshare -m is not permitted here (needs CAP_SYS_ADMIN)"
[[ -f "$deb" ]] || fail "no package at $1"

work=$(mktemp -d /tmp/navd-debtest.XXXXXX)
root="$work/root"
sd_pid="" sys_pid=""
cgroups=()
cleanup() {
    if [[ -n "$sys_pid" ]] && kill -0 "$sys_pid" 2>/dev/null; then
        kill -s SIGRTMIN+4 "$sys_pid" 2>/dev/null  # poweroff; SIGKILL ends its whole PID namespace
        for _ in $(seq 100); do kill -0 "$sys_pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$sys_pid" 2>/dev/null
        sleep 0.5
    fi
    if [[ -n "$sd_pid" ]] && kill -0 "$sd_pid" 2>/dev/null; then
        kill -TERM "$sd_pid" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$sd_pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$sd_pid" 2>/dev/null
    fi
    for group in "${cgroups[@]}"; do find "$group" -depth -type d -exec rmdir {} + 2>/dev/null; done
    # Every mount was made in a private mount namespace that ended with its process: none is left
    # under $work here, so removing it removes only the root's files.
    findmnt -rn -o TARGET | grep -q "^$work" || rm -rf "$work"
}
trap cleanup EXIT

# Runs a command in the root as root, with /proc and /dev mounted for it alone.
in_root() {
    unshare -m --propagation private bash -c "mount -t proc proc '$root/proc' && mount --rbind /dev '$root/dev' &&
        exec chroot '$root' env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \"\$@\"" in_root "$@"
}
# Lists the root's files, less what changes by itself: kernel file systems, logs, apt's caches
# and bookkeeping (extended_states records which packages were installed as dependencies), and what
# booting the system manager in part 4 writes of its own (timer stamps, logind's linger folder).
# dpkg's database and the rest of /var/lib/systemd stay in: navd's entries there must go too.
list_files() {
    (cd "$root" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./run -o -path ./tmp \
        -o -path ./var/log -o -path ./var/cache -o -path ./var/lib/apt \
        -o -path ./var/lib/systemd/timers -o -path ./var/lib/systemd/linger \) -prune -o -print | LC_ALL=C sort)
}

# 1. The clean root.
mkdir -p "$cache"
echo "debootstrap: bookworm (minbase + systemd, dbus, dbus-user-session) from $mirror"
start=$(date +%s)
debootstrap --variant=minbase --cache-dir="$cache" --include=systemd,dbus,dbus-user-session \
    bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || fail "debootstrap could not make the root (are Debian's packages reachable here?): $(tail -5 "$work/debootstrap.log")"
echo "debootstrap: done in $(( $(date +%s) - start )) s"
in_root apt-get update -qq >"$work/apt.log" 2>&1 || fail "apt-get update in the root: $(tail -5 "$work/apt.log")"
in_root useradd -m -u "$uid" -s /bin/bash tester || fail "useradd tester"
in_root useradd -u "$outsider_uid" -s /bin/bash outsider || fail "useradd outsider"
list_files >"$work/before.txt"
echo "root: $(wc -l <"$work/before.txt") files and folders before the install"

# 2. The install, through apt as a user would.
cp "$deb" ${cockpit_deb:+"$cockpit_deb"} "$root/tmp/"
debs=("/tmp/$(basename "$deb")")
[[ -z "$cockpit_deb" ]] || debs+=("/tmp/$(basename "$cockpit_deb")")
in_root apt-get install -y --no-install-recommends "${debs[@]}" >"$work/apt.log" 2>&1 \
    || fail "apt-get install ${debs[*]}: $(tail -20 "$work/apt.log")"
echo "install: $(grep -E '^(Setting up|Unpacking) ' "$work/apt.log" | grep -c '^Setting up') packages set up: $(grep '^Setting up' "$work/apt.log" | cut -d' ' -f3 | tr '\n' ' ')"
depends=$(in_root dpkg-query -W -f='${Depends}' navd)
echo "Depends: $depends"
grep -q 'default-dbus-session-bus | dbus-session-bus' <<<"$depends" || fail "Depends names no session bus: $depends"
packaged=$(in_root dpkg -L navd)
for f in /usr/bin/navd /usr/bin/navctl /usr/bin/navwatch /usr/lib/systemd/user/navd.service \
    /usr/share/dbus-1/services/org.navd.Navigator1.service /usr/share/dbus-1/interfaces/org.navd.Navigator1.xml \
    /usr/share/dbus-1/system.d/org.navd.Navigator1.conf /usr/share/man/man8/navd.8.gz /usr/share/man/man1/navctl.1.gz \
    /usr/share/man/man1/navwatch.1.gz /usr/share/man/man5/navd.routes.5.gz /usr/share/bash-completion/completions/navctl /usr/share/zsh/site-functions/_navctl \
    /usr/share/fish/vendor_completions.d/navctl.fish /usr/share/doc/navd/copyright \
    /usr/lib/systemd/system/navd.service /usr/lib/sysusers.d/navd.conf \
    /usr/share/dbus-1/system-services/org.navd.Navigator1.service; do
    grep -qx "$f" <<<"$packaged" || fail "the package does not install $f"
done
grep -q "^Exec=/usr/bin/navd$" "$root/usr/share/dbus-1/services/org.navd.Navigator1.service" || fail "the activation file does not name /usr/bin/navd"
# One executable: navctl and navwatch are links to navd (scripts/link-commands.sh), which runs what it is called by.
for c in navctl navwatch; do
    [[ "$(readlink "$root/usr/bin/$c")" == navd ]] || fail "/usr/bin/$c is not a link to navd: $(ls -l "$root/usr/bin/$c")"
done
in_root getent passwd navd >/dev/null || fail "the package did not create the user navd (lib/sysusers.d/navd.conf)"
in_root getent group navd >/dev/null || fail "the package did not create the group navd"
echo "system service: navd.service, sysusers.d and the system activation file installed; user and group navd created"
# Every library a binary links comes from a package that Depends names.
depends_names=$(tr ',|' '\n\n' <<<"$depends" | awk '{ print $1 }')
for binary in navd navctl navwatch; do
    for library in $(objdump -p "$root/usr/bin/$binary" | awk '$1 == "NEEDED" { print $2 }'); do
        owner=$(in_root dpkg -S "*/$library" 2>/dev/null | head -1 | cut -d: -f1)
        [[ -n "$owner" ]] || fail "$binary links $library, which no installed package holds"
        grep -qxF "$owner" <<<"$depends_names" || fail "$binary links $library from $owner, which Depends does not name: $depends"
    done
done
# Loaded on first use (libsqlite3, libyaml: CLibraryLoader) or linked in (libstdc++: scripts/static-libstdc++),
# never at every start: navctl would map and bind them for nothing.
needed=$(objdump -p "$root/usr/bin/navd" | awk '$1 == "NEEDED" { print $2 }' | tr '\n' ' ')
for library in libsqlite3 libyaml libstdc++; do
    [[ " $needed" != *" $library"* ]] || fail "navd links $library at start: $needed"
done
echo "libraries: every one the binaries link comes from a package that Depends names; navd links $needed"
if [[ -n "$cockpit_deb" ]]; then
    in_root dpkg-query -W -f='${Status}' cockpit-bridge | grep -q 'install ok installed' || fail "cockpit-navd did not pull cockpit-bridge"
    [[ "$(dpkg-deb -f "$cockpit_deb" Architecture)" == all ]] || fail "cockpit-navd is not Architecture: all"
    page=$(in_root dpkg -L cockpit-navd)
    for f in manifest.json index.html navd.js navd.css; do
        grep -qx "/usr/share/cockpit/navd/$f" <<<"$page" || fail "cockpit-navd does not install /usr/share/cockpit/navd/$f"
        cmp -s "$repo/cockpit/$f" "$root/usr/share/cockpit/navd/$f" || fail "/usr/share/cockpit/navd/$f differs from cockpit/$f"
    done
    echo "cockpit-navd: the page in /usr/share/cockpit/navd, cockpit-bridge installed with it"
fi
[[ -z "$(find "$root/etc/systemd" -name 'navd.service' -o -name 'dbus-org.navd.Navigator1.service')" ]] \
    || fail "navd.service was enabled: $(find "$root/etc/systemd" -name '*navd*')"

# 3. navctl push orange under a real systemd --user as tester. The user manager needs a cgroup of
# its own that it may write, in every hierarchy systemd uses here.
for hierarchy in /sys/fs/cgroup/unified /sys/fs/cgroup/systemd /sys/fs/cgroup; do
    [[ -f "$hierarchy/cgroup.procs" ]] || continue
    group="$hierarchy/navd-debtest-$$"
    mkdir "$group" && chown -R "$uid:$uid" "$group" && cgroups+=("$group") || fail "cannot make the cgroup $group"
    [[ "$hierarchy" == /sys/fs/cgroup ]] && break  # a pure cgroup2 machine has that one only
done
user_env=(env -i PATH=/usr/bin:/bin HOME=/home/tester USER=tester LOGNAME=tester XDG_RUNTIME_DIR=/run/user/$uid)
groups_list="${cgroups[*]}"
unshare -m --propagation private bash -c "
    for group in $groups_list; do echo \$\$ >\"\$group/cgroup.procs\" || exit 1; done
    mount -t proc proc '$root/proc' && mount --rbind /sys '$root/sys' && mount --rbind /dev '$root/dev' &&
    mount -t tmpfs -o mode=755 tmpfs '$root/run' && mkdir -p '$root/run/systemd/system' '$root/run/user/$uid' &&
    chown $uid:$uid '$root/run/user/$uid' && chmod 700 '$root/run/user/$uid' &&
    exec chroot '$root' setpriv --reuid=$uid --regid=$uid --init-groups ${user_env[*]} \
        /lib/systemd/systemd --user --log-target=console --log-level=notice
" >"$work/systemd.log" 2>&1 &
sd_pid=$!
as_tester() { nsenter -t "$sd_pid" -m -r -w setpriv --reuid=$uid --regid=$uid --init-groups "${user_env[@]}" \
    DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$uid/bus" "$@"; }
wait_for_user_manager "the user manager of tester" as_tester
[[ "$(as_tester id -u)" == "$uid" ]] || fail "the commands do not run as tester"
[[ "$(as_tester systemctl --user is-enabled navd 2>&1)" != enabled ]] || fail "navd.service is enabled"
[[ "$(as_tester systemctl --user is-active navd 2>&1)" != active ]] || fail "navd was running before the first call"
out=$(as_tester navctl push orange 2>&1) || fail "navctl push orange did not activate navd: $out"
echo "tester: navctl push orange → $out"
[[ "$out" == "2 push rainbow: red > orange" ]] || fail "unexpected answer: $out"
[[ "$(as_tester systemctl --user is-active navd)" == active ]] || fail "navd.service is not active after the call"
echo "tester: $(as_tester systemctl --user status navd --no-pager 2>&1 | grep -E 'Active:|Main PID' | sed 's/^ *//' | tr '\n' ' ')"
out=$(as_tester navctl state 2>&1) || fail "navctl state: $out"
[[ "$out" == "2 state rainbow: red > orange" ]] || fail "unexpected state: $out"
as_tester systemctl --user stop navd || fail "systemctl --user stop navd"
[[ -f "$root/home/tester/.local/state/navd/navd.sqlite3" ]] || fail "no state database in tester's ~/.local/state/navd"
kill -TERM "$sd_pid"
for _ in $(seq 100); do kill -0 "$sd_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$sd_pid" 2>/dev/null && fail "the user manager did not stop on SIGTERM"
sd_pid=""

# 4. navd on the system bus, under a real systemd system instance.
system_bus_test

# 5. Removal leaves nothing behind.
in_root apt-get remove --purge -y navd ${cockpit_deb:+cockpit-navd} >"$work/apt.log" 2>&1 || fail "apt-get remove --purge navd: $(tail -10 "$work/apt.log")"
in_root apt-get autoremove --purge -y >>"$work/apt.log" 2>&1 || fail "apt-get autoremove --purge: $(tail -10 "$work/apt.log")"
[[ ! -e "$root/var/lib/navd" && ! -e "$root/etc/navd" ]] || fail "the purge left /var/lib/navd or /etc/navd behind"
echo "purge: removed $(grep '^Removing ' "$work/apt.log" | cut -d' ' -f2 | tr '\n' ' ')"
list_files >"$work/after.txt"
kept=$(diff "$work/before.txt" "$work/after.txt" | grep '^> ./home/tester/' | cut -c3- | tr '\n' ' ')
left=$(diff "$work/before.txt" "$work/after.txt" | grep -v '^> ./home/tester/' | grep '^[<>]')
[[ -z "$left" ]] || fail "the root differs after the purge (< gone, > left behind):
$left"
echo "purge: the root's $(wc -l <"$work/after.txt") files and folders are those before the install, but for tester's data: $kept"
echo "PASS"
