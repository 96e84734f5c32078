#!/bin/bash
# Settles whether ThreadSanitizer's "Swift access race" in DBus's SignatureCache (under
# Synchronization.Mutex) was a real race: builds tsan-mutex-repro.swift with -sanitize=thread and
# runs it with each lock. Expected, and found with Swift 6.3.1 on Linux x86_64:
#   mutex         every insert counted (the mutex excludes the threads) and yet a report:
#                 a contended Mutex is handed over in the kernel (FUTEX_*_PI), which TSan cannot see
#   pthread       every insert counted, no report
#   pthread-racy  a report: a real race under the pthread lock is still found
# Exits 0 when all three come out so.
set -u
SWIFTC=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$SWIFTC" -sanitize=thread -g -Onone "$here/tsan-mutex-repro.swift" -o "$work/repro" || exit 1
status=0
for mode in mutex pthread pthread-racy; do
    output=$("$work/repro" "$mode" 2>&1)
    reports=$(grep -c "WARNING: ThreadSanitizer" <<<"$output")
    counted=$(grep -o "^$mode: .*" <<<"$output")
    echo "$mode: ${counted#"$mode: "}; ThreadSanitizer reports: $reports"
    case $mode in
        mutex) [[ $counted == *"400000 of 400000"* && $reports -gt 0 ]] || status=1 ;;
        pthread) [[ $counted == *"400000 of 400000"* && $reports -eq 0 ]] || status=1 ;;
        pthread-racy) [[ $reports -gt 0 ]] || status=1 ;;
    esac
done
exit $status
