#!/usr/bin/env bash
# install.sh install|uninstall BIN_DIR PREFIX DESTDIR
# Installs navd's binaries, D-Bus files, systemd user unit and shell completions under
# $DESTDIR$PREFIX, substituting the installed paths into the activation file and the unit.
# The binaries are stripped as Debian strips them (debug information and symbols not needed to
# run stay out of the installed files); STRIP overrides the command, and STRIP= (empty) installs
# them as built, with their debug information.
set -euo pipefail
strip_command=${STRIP-strip --remove-section=.comment --remove-section=.note --strip-unneeded}
action=$1 bin_dir=$2 prefix=$3 destdir=${4:-}
prefix=${prefix%/}
root="$destdir$prefix"
here="$(cd "$(dirname "$0")/.." && pwd)"

# A prefix inside the home directory is a per-user install: systemd reads user units from
# ~/.local/share/systemd/user there, and from $PREFIX/lib/systemd/user for system prefixes.
if [[ -n "${HOME:-}" && "$prefix" == "$HOME"/* ]]; then
    unit_dir=share/systemd/user
    per_user=1
else
    unit_dir=lib/systemd/user
    per_user=0
fi

files=(
    "bin/navd" "bin/navctl" "bin/navwatch"
    "share/dbus-1/interfaces/org.navd.Navigator1.xml"
    "share/dbus-1/services/org.navd.Navigator1.service"
    "$unit_dir/navd.service"
    "share/bash-completion/completions/navctl"
    "share/zsh/site-functions/_navctl"
    "share/fish/vendor_completions.d/navctl.fish"
)
((per_user)) || files+=("share/dbus-1/system.d/org.navd.Navigator1.conf")

case "$action" in
install)
    install -d "$root/bin"
    for b in navd navctl navwatch; do
        install -m 0755 "$bin_dir/$b" "$root/bin/$b"
        if [[ -n "$strip_command" ]]; then $strip_command "$root/bin/$b"; fi
    done
    install -D -m 0644 "$here/dbus/org.navd.Navigator1.xml" "$root/share/dbus-1/interfaces/org.navd.Navigator1.xml"
    install -d "$root/share/dbus-1/services" "$root/$unit_dir"
    sed "s|@BINDIR@|$prefix/bin|g" "$here/dbus/org.navd.Navigator1.service.in" > "$root/share/dbus-1/services/org.navd.Navigator1.service"
    sed "s|@BINDIR@|$prefix/bin|g" "$here/systemd/navd.service.in" > "$root/$unit_dir/navd.service"
    chmod 0644 "$root/share/dbus-1/services/org.navd.Navigator1.service" "$root/$unit_dir/navd.service"
    if ! ((per_user)); then
        install -D -m 0644 "$here/dbus/org.navd.Navigator1.conf" "$root/share/dbus-1/system.d/org.navd.Navigator1.conf"
    fi
    install -d "$root/share/bash-completion/completions" "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d"
    "$bin_dir/navctl" --generate-completion-script bash > "$root/share/bash-completion/completions/navctl"
    "$bin_dir/navctl" --generate-completion-script zsh > "$root/share/zsh/site-functions/_navctl"
    "$bin_dir/navctl" --generate-completion-script fish > "$root/share/fish/vendor_completions.d/navctl.fish"
    echo "installed navd under $root"
    if ((per_user)); then
        echo "next: systemctl --user daemon-reload && systemctl --user enable --now navd"
    fi
    ;;
uninstall)
    for f in "${files[@]}"; do rm -f "$root/$f"; done
    echo "removed navd from $root"
    ;;
*)
    echo "usage: install.sh install|uninstall BIN_DIR PREFIX [DESTDIR]" >&2
    exit 2
    ;;
esac
