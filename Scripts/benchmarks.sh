#!/usr/bin/env bash
# The full benchmark, for the record: builds the Benchmarks product in release mode, runs every
# suite, rewrites the generated part of
# Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/Performance.md (the machine, the table, the
# notes and the limit behind each target, between its BEGIN/END GENERATED BENCHMARKS markers)
# and writes the rows as JSON to .build/benchmarks.json.
#
#   Scripts/benchmarks.sh [--scratch DIR]     other Benchmarks options pass through
#
# Run it on a quiet machine: the table records the load average at the start and the end, and a
# MISS under load is a reason to run again, not a finding. It takes several minutes on 2 cores.
# The run exits 0 whatever the figures.
set -euo pipefail
cd "$(dirname "$0")/.."

read -r load _ < /proc/loadavg 2>/dev/null || load=unknown
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if [ "$load" != unknown ] && awk -v load="$load" -v cores="$cores" 'BEGIN { exit !(load > cores / 2) }'; then
  printf 'warning: load average %s on %s cores: the figures will be noisy\n' "$load" "$cores" >&2
fi

swift build -c release --product Benchmarks
bin=$(swift build -c release --show-bin-path)
mkdir -p .build
"$bin/Benchmarks" --markdown Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/Performance.md \
  --json .build/benchmarks.json "$@"
