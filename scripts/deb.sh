#!/usr/bin/env bash
# deb.sh BIN_DIR OUT_DIR — `make deb`: builds navd_VERSION_ARCH.deb and cockpit-navd_VERSION_all.deb (the
# Cockpit page) into OUT_DIR with debhelper (debian/), from the release binaries in BIN_DIR, then runs
# lintian on both (any error fails).
# VERSION is debian/changelog's, which must be navd's own (`navd --version`).
# Why debhelper rather than dpkg-deb over `make install DESTDIR=…`: the package's contents are the
# same either way (debian/rules runs scripts/install.sh), but debhelper does, as Debian does it,
# what a hand-rolled dpkg-deb would have to copy: dpkg-shlibdeps for Depends, the copyright and
# changelog under /usr/share/doc, md5sums, permissions, compression; and lintian knows its output.
set -euo pipefail
bin_dir=$(cd "$1" && pwd) out_dir=$(mkdir -p "$2" && cd "$2" && pwd)
cd "$(dirname "$0")/.."

version=$(dpkg-parsechangelog -S Version)
navd_version=$("$bin_dir/navd" --version)
if [[ "$version" != "$navd_version" ]]; then
    echo "deb: debian/changelog is at $version but navd --version says $navd_version: add a changelog entry" >&2
    exit 1
fi
dpkg-checkbuilddeps

# What debhelper leaves in debian/ goes before and after, so every build starts afresh.
debris=(debian/navd debian/cockpit-navd debian/.debhelper debian/files debian/*.substvars debian/debhelper-build-stamp debian/*.debhelper.log)
rm -rf "${debris[@]}"
trap 'rm -rf "${debris[@]}"' EXIT
export NAVD_BIN_DIR="$bin_dir" NAVD_DEB_DIR="$out_dir"
# Rules-Requires-Root: no — dh_builddeb gives every file to root:root itself, so no fakeroot.
debian/rules binary

deb="$out_dir/navd_${version}_$(dpkg --print-architecture).deb"
echo "deb: $deb ($(du -k "$deb" | cut -f1) KiB, Installed-Size $(dpkg-deb -f "$deb" Installed-Size) KiB)"
echo "deb: Depends: $(dpkg-deb -f "$deb" Depends)"
echo "deb: lintian (errors fail; the notes kept are listed in docs/installing.md):"
# spelling-error-in-binary (54 notes) is about the Swift runtime's strings, not navd's: not shown.
lintian --fail-on error --display-info --suppress-tags spelling-error-in-binary "$deb"
cockpit_deb="$out_dir/cockpit-navd_${version}_all.deb"
echo "deb: $cockpit_deb ($(du -k "$cockpit_deb" | cut -f1) KiB), Depends: $(dpkg-deb -f "$cockpit_deb" Depends)"
lintian --fail-on error --display-info "$cockpit_deb"
