#!/usr/bin/env bash
# libFuzzer on one stored format: every input it finds that breaks a property is kept as a replay
# test.
#
#   Scripts/fuzz.sh TARGET SECONDS [libFuzzer options]
#   Scripts/fuzz.sh --list
#
# TARGET is a directory of Fuzz/Targets (value-file, log-file, outbox, heartbeats, diagnostic-log,
# consumer-record, pipeline-state, ledger, accountant, sequence-tracker). The script builds the
# library and the StoredFormatFuzzing harness with `-sanitize=fuzzer,address` (SwiftPM, scratch
# path .build-fuzz), links the target's main.swift with swiftc (SwiftPM cannot link a libFuzzer
# executable on Linux: it aliases `main` to a symbol `-parse-as-library` never emits), writes the
# format's seed files into the corpus (.build-fuzz/corpus/TARGET, kept between runs) and fuzzes for
# SECONDS. An input that crashes is written to Tests/StoredFormatFuzzTests/Replays/TARGET/, where
# `swift test` replays it from then on: commit it with the fix.
#
# Exit status: 0 when nothing was found, libFuzzer's status otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--list" ]; then
  ls Fuzz/Targets
  exit 0
fi
if [ $# -lt 2 ] || [ ! -f "Fuzz/Targets/$1/main.swift" ]; then
  printf 'usage: Scripts/fuzz.sh TARGET SECONDS [libFuzzer options]\ntargets: %s\n' \
    "$(ls Fuzz/Targets | tr '\n' ' ')" >&2
  exit 64
fi
target=$1
seconds=$2
shift 2

scratch=.build-fuzz
flags=(-Xswiftc -sanitize=fuzzer,address)
swift build --target StoredFormatFuzzing --scratch-path "$scratch" "${flags[@]}"
bin=$(swift build --scratch-path "$scratch" "${flags[@]}" --show-bin-path)

# The objects of the harness and of every module it imports.
objects=()
for module in SharedStore UsageModel BudgetMath SequenceTracking TrackerSignals GapDetection \
  ActivityWatchInterop ScreenTimeKit TestSupport StoredFormatFuzzing; do
  objects+=("$bin/$module.build"/*.swift.o)
done
executable="$bin/fuzz-$target"
swiftc -parse-as-library -sanitize=fuzzer,address -g -I "$bin/Modules" \
  "Fuzz/Targets/$target/main.swift" "${objects[@]}" -o "$executable"

corpus="$scratch/corpus/$target"
replays="Tests/StoredFormatFuzzTests/Replays/$target"
mkdir -p "$corpus" "$replays"
# The format's valid files, as inputs: the first run through the target writes them.
# Leaks are not checked: LeakSanitizer reports as leaked the 4 KiB read buffers of
# swift-corelibs-foundation's `Data(contentsOf:)`, which the harness uses to compare the store's
# files (three of them over seven inputs), not memory of the library.
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
options=(-detect_leaks=0 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$replays/")
STK_FUZZ_SEEDS="$corpus" "$executable" "${options[@]}" -runs=0 "$corpus" >/dev/null 2>&1
printf 'fuzzing %s for %ss from %s inputs\n' "$target" "$seconds" "$(ls "$corpus" | wc -l)"
"$executable" "${options[@]}" -max_total_time="$seconds" -print_final_stats=1 "$@" "$corpus"
