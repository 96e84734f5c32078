#!/usr/bin/env bash
# man-pages-test.sh BIN_DIR — man/navd.8, man/navctl.1 and man/navwatch.1 against the binaries in
# BIN_DIR, and the hand-written man/navd.routes.5 (scripts/man.py check): each page is current (made by `make man` from the binary's
# --experimental-dump-help, its man/src/ part and, for navd, its introspection XML), names every
# option and subcommand the binary accepts (hidden ones included), and renders with
# `MANWIDTH=80 man --warnings -l PAGE` without a warning.
# Exit 0: passed; 1: failed; 77: cannot run here (the reason on stdout).
set -uo pipefail
bin=$1
repo="$(cd "$(dirname "$0")/../.." && pwd)"

command -v man >/dev/null || { echo "SKIP: no man (man-db is not installed)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
exec python3 "$repo/scripts/man.py" check "$bin"
