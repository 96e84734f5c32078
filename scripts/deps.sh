#!/usr/bin/env bash
# deps.sh [--check] [deb] [deb-test] — the Debian packages navd needs.
#   deps.sh --check     what building needs (`make`, `make build`, `make release`): says which are
#                       missing and fails; installs nothing, as any user.
#   deps.sh             what building, the tests and the demos need (`make deps`, `make test`, `make demo`):
#                       as root it installs the missing ones with apt-get; otherwise it prints the exact
#                       command and fails.
#   deb, deb-test       add what `make deb` needs (debhelper, lintian) and its install test
#                       (debootstrap), so that `make test` installs no packaging tools.
# Swift itself is no Debian package: --check also says when the compiler ($SWIFT, else swift on PATH
# or /opt/swift/usr/bin/swift) is missing.
set -euo pipefail

# What building needs: the C libraries navd calls and pkg-config, which finds them (Package.swift);
# libstdc++-12-dev's libstdc++.a, which release builds link in (scripts/static-libstdc++).
build=(libdbus-1-dev libsqlite3-dev libyaml-dev pkg-config libstdc++-12-dev)
# What the tests and demos add. dbus-daemon and dbus-bin: the private buses; dbus-user-session and
# systemd: the activation test; python3-dbus: a client nobody here wrote; tmux: navwatch's terminal view;
# util-linux: unshare, nsenter, runuser; binutils: objdump and strip; man-db and groff-base: the man-page
# test renders each page with `man --warnings -l`; python3-gi, gir1.2-gtk-4.0, gir1.2-adw-1: the GTK view
# (Examples/gtk-view); xvfb, xdotool, scrot: its tests (an X server of their own, clicks and keys,
# screenshots); fonts-dejavu-core: text in them.
# cockpit-ws, cockpit-bridge: the Cockpit page (cockpit/) served from the checkout; chromium, chromium-driver,
# python3-selenium: its test in a real browser (Tests/Scripts/cockpit-browser-test.py).
runtime=(dbus dbus-bin dbus-daemon dbus-user-session tmux python3-dbus python3-gi systemd util-linux binutils man-db groff-base
         gir1.2-gtk-4.0 gir1.2-adw-1 xvfb xdotool scrot fonts-dejavu-core
         cockpit-ws cockpit-bridge chromium chromium-driver python3-selenium)

missing_of() {
    local p status
    for p in "$@"; do
        status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
        [[ "$status" == "install ok installed" ]] || echo "$p"
    done
}

if [[ "${1:-}" == "--check" ]]; then
    mapfile -t missing < <(missing_of "${build[@]}")
    swift=${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}
    ok=1
    if ! [[ -x "$swift" ]] && ! command -v "$swift" >/dev/null; then
        echo "deps: no Swift compiler at $swift: install Swift 6.1 or later (swift.org) in /opt/swift, or put swift on PATH" >&2
        ok=0
    fi
    if ((${#missing[@]})); then
        echo "deps: building navd needs these Debian packages, which are missing: ${missing[*]}" >&2
        echo "deps: install them with:  sudo apt-get install ${missing[*]}   (or: sudo make deps, which adds the tests' and demos' packages)" >&2
        ok=0
    fi
    ((ok)) || exit 1
    exit 0
fi

packages=("${build[@]}" "${runtime[@]}")
for set in "$@"; do
    case "$set" in
    deb) packages+=(debhelper dpkg-dev lintian) ;;
    deb-test) packages+=(debootstrap) ;;
    *) echo "deps: unknown set '$set' (--check, deb, deb-test)" >&2; exit 2 ;;
    esac
done

mapfile -t missing < <(missing_of "${packages[@]}")
if ((${#missing[@]} == 0)); then
    exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
    echo "deps: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
    echo "deps: missing Debian packages: ${missing[*]}" >&2
    echo "deps: run:  sudo make deps   (or: sudo apt-get update && sudo apt-get install -y ${missing[*]})" >&2
    exit 1
fi
