#!/usr/bin/env bash
# build-as-user-test.sh — `make build` works for a user who is not root once the build dependencies are
# installed, and runs no package manager (make check-long). A throwaway user, created here with useradd
# and removed afterwards, builds a copy of the tree (the committed files and the work tree's changes, no
# .build) in a folder of its own under /tmp; `make -n build` must name no package manager either.
# Exit 0: passed, or skipped with the reason printed (not root: no user can be made); 1: failed.
set -uo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
swift=${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}

if [[ $(id -u) -ne 0 ]]; then
    echo "SKIP: build-as-user-test.sh makes a throwaway user, which needs root"
    exit 0
fi
for tool in useradd userdel runuser; do
    command -v "$tool" >/dev/null || { echo "SKIP: no $tool"; exit 0; }
done

fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d /tmp/navd-build-as-user.XXXXXX)
user="navdb$$"
cleanup() {
    userdel -r "$user" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
chmod 0755 "$work"
useradd --create-home --home-dir "$work/home" --shell /bin/bash "$user" || fail "useradd $user"

# The tree as git sees it (tracked and new files, not what .gitignore leaves out).
(cd "$repo" && git ls-files -z --cached --others --exclude-standard) \
    | (cd "$repo" && tar --null -T - -cf -) | (mkdir -p "$work/tree" && tar -C "$work/tree" -xf -) \
    || fail "copying the tree"
# The package versions and the SwiftPM cache this machine resolved already, so that the build needs no
# network (a machine with network would fetch them).
[[ -f "$repo/Package.resolved" ]] && cp "$repo/Package.resolved" "$work/tree/"
if [[ -d "${HOME:-/root}/.cache/org.swift.swiftpm" ]]; then
    mkdir -p "$work/home/.cache" && cp -a "${HOME:-/root}/.cache/org.swift.swiftpm" "$work/home/.cache/"
fi
# Where git fetches packages from a local mirror owned by root (a url.insteadOf in /etc/gitconfig), git
# refuses another user's repositories unless told to trust them: the throwaway user is.
git config --file "$work/home/.gitconfig" --add safe.directory '*'
chown -R "$user:" "$work/tree" "$work/home"

# TMPDIR of its own: the compiler writes temporary files there, and a /tmp that is not world-writable
# (seen once on this machine, mode 0755) made every swiftc call fail with "permissionDenied".
mkdir -p "$work/home/tmp" && chown "$user:" "$work/home/tmp"
as_user() {
    runuser -u "$user" -- env -i HOME="$work/home" TMPDIR="$work/home/tmp" \
        PATH="/usr/local/bin:/usr/bin:/bin:$(dirname "$swift")" "$@"
}

dry=$(as_user make -C "$work/tree" -n build 2>&1) || fail "make -n build failed: $dry"
if grep -Eq '(^|[ /])(apt-get|apt|dpkg|aptitude)( |$)' <<<"$dry"; then
    fail "make -n build runs a package manager: $dry"
fi
echo "make -n build: $(wc -l <<<"$dry") commands, no package manager"

start=$(date +%s)
log="$work/build.log"
as_user make -C "$work/tree" build >"$log" 2>&1 || { tail -30 "$log"; fail "make build as $user failed"; }
grep -q "deps: installing" "$log" && fail "make build installed packages"
bin=$(as_user bash -c "cd '$work/tree' && swift build --show-bin-path")
[[ -x "$bin/navd" && -x "$bin/navctl" && -x "$bin/navwatch" ]] || fail "make build made no navd, navctl, navwatch in $bin"
[[ $(stat -c %U "$bin/navd") == "$user" ]] || fail "navd is not owned by $user"
as_user "$bin/navd" --version >/dev/null || fail "the built navd does not run"
echo "PASS: make build as $user (not root) in $(( $(date +%s) - start )) s: $(as_user "$bin/navd" --version)"
