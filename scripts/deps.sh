#!/usr/bin/env bash
# deps.sh [deb] [deb-test] — installs the Debian packages navd's build, tests and demo need; with
# `deb`, also those `make deb` needs (debhelper, lintian), with `deb-test` those of its install test
# (debootstrap), so that `make test` installs no packaging tools.
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -euo pipefail

# man-db and groff-base: the man-page test renders each page with `man --warnings -l`.
# python3-gi, gir1.2-gtk-4.0, gir1.2-adw-1: the GTK view (Examples/gtk-view); xvfb, xdotool, scrot: its tests
# (an X server of their own, clicks and keys, screenshots); fonts-dejavu-core: text in them.
packages=(libdbus-1-dev pkg-config dbus dbus-bin dbus-daemon dbus-user-session libsqlite3-dev libyaml-dev tmux python3-dbus python3-gi systemd util-linux binutils man-db groff-base
          gir1.2-gtk-4.0 gir1.2-adw-1 xvfb xdotool scrot fonts-dejavu-core)
for set in "$@"; do
    case "$set" in
    deb) packages+=(debhelper dpkg-dev lintian) ;;
    deb-test) packages+=(debootstrap) ;;
    *) echo "deps: unknown set '$set' (deb, deb-test)" >&2; exit 2 ;;
    esac
done

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

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
    echo "deps: run:  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
