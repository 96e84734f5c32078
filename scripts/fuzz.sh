#!/bin/bash
# navd's fuzz targets under libFuzzer (docs/reliability.md#fuzzing).
#   scripts/fuzz.sh run [TARGET...]    each target (default: every folder of Tests/Fuzz with a corpus) for
#                                      FUZZ_SECONDS (default 60), -timeout=1, -rss_limit_mb=512; fails on any
#                                      crash, leak, timeout or out-of-memory, naming the input it left
#   scripts/fuzz.sh merge [TARGET...]  minimises the checked-in corpus with what the runs found (-merge=1)
# One target at a time, under nice -n 10. New inputs go to .build-fuzz/runs/TARGET/corpus, never into the
# checked-in corpus; make fuzz-merge folds them in.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
SECONDS_EACH="${FUZZ_SECONDS:-60}"
mode="${1:-run}"
shift || true
# NAVD_FUZZ=1 declares the navd-fuzz executable in Package.swift; it links only with -sanitize=fuzzer.
# Swift's own crash backtracer reads memory ASan does not know of and buries the finding under a report of its own.
export SWIFT_BACKTRACE=enable=no
# ASan keeps freed memory in a quarantine of 256 MiB by default, which counts against -rss_limit_mb=512: with a
# corpus of a thousand inputs read at start, a bus-policy run reached 514 MiB, of which 26 MiB was live. 64 MiB of
# quarantine leaves the limit to measure the target. ASAN_OPTIONS given to make fuzz still win.
export ASAN_OPTIONS="quarantine_size_mb=64${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
build=(-c release --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address)
NAVD_FUZZ=1 "$SWIFT" build "${build[@]}" --product navd-fuzz
binary="$(NAVD_FUZZ=1 "$SWIFT" build "${build[@]}" --show-bin-path)/navd-fuzz"

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for folder in Tests/Fuzz/*/corpus; do targets+=("$(basename "$(dirname "$folder")")"); done
fi

for target in "${targets[@]}"; do
    source="Tests/Fuzz/$target"
    work=".build-fuzz/runs/$target"
    mkdir -p "$work/corpus"
    options=(-timeout=1 -rss_limit_mb=512 -malloc_limit_mb=512 -print_final_stats=1)
    [ -f "$source/dict" ] && options+=("-dict=$source/dict")
    # A target's own libFuzzer flags, one a line (bus-policy bounds its inputs: the policy printed grows with each name).
    [ -f "$source/options" ] && while read -r flag; do [ -n "$flag" ] && options+=("$flag"); done < "$source/options"
    folders=("$source/corpus")
    [ -d "$source/regressions" ] && folders+=("$source/regressions")
    if [ "$mode" = merge ]; then
        rm -rf "$work/merged" && mkdir -p "$work/merged"
        NAVD_FUZZ_TARGET="$target" nice -n 10 "$binary" -merge=1 "${options[@]}" "$work/merged" "$source/corpus" "$work/corpus"
        rm -f "$source/corpus"/* && cp "$work/merged"/* "$source/corpus/"
        echo "fuzz-merge: $target: $(ls "$source/corpus" | wc -l) inputs, $(du -sh "$source/corpus" | cut -f1)"
        continue
    fi
    echo "fuzz: $target for ${SECONDS_EACH}s"
    rm -f "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*
    set +e
    NAVD_FUZZ_TARGET="$target" nice -n 10 "$binary" "${options[@]}" -max_total_time="$SECONDS_EACH" \
        -artifact_prefix="$work/" "$work/corpus" "${folders[@]}" > "$work/log" 2>&1
    status=$?
    set -e
    grep -E '^(#[0-9]+ +(INITED|DONE)|stat::number_of_executed_units|stat::average_exec_per_sec|==[0-9]+==ERROR|navd-fuzz:|SUMMARY)' "$work/log" || true
    if [ "$status" != 0 ] || ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* >/dev/null 2>&1; then
        echo "make fuzz: $target failed (log: $work/log); the failing input: $(ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null | tr '\n' ' ')" >&2
        echo "  reproduce: NAVD_FUZZ_TARGET=$target $binary INPUT; keep it in $source/regressions/ with its fix" >&2
        exit 1
    fi
done
