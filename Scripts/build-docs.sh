#!/usr/bin/env bash
# Builds the DocC archive of every module with warnings as errors, without the DocC plugin
# (which would be a package dependency): symbol graphs from the compiler, then `docc convert`.
#
#   Scripts/build-docs.sh [OUTPUT_DIR]     (default: .build/docs)
set -euo pipefail
cd "$(dirname "$0")/.."

output=${1:-.build/docs}
modules=(SharedStore SharedStoreTesting UsageModel BudgetMath SignalValues SequenceTracking TrackerSignals GapDetection ActivityWatchInterop ActivityPlanning Shielding AppPipeline ScreenTimeKit)

swift package dump-symbol-graph --minimum-access-level public >/dev/null
graphs=$(find .build -type d -name symbolgraph -path '*/symbolgraph' | head -n 1)
[ -n "$graphs" ] || { echo "no symbol graphs found under .build" >&2; exit 1; }

mkdir -p "$output"
for module in "${modules[@]}"; do
  staging=$(mktemp -d)
  cp "$graphs/$module".symbols.json "$staging/"
  cp "$graphs/$module"@*.symbols.json "$staging/" 2>/dev/null || true
  docc convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$staging" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.screentimekit.$module" \
    --output-path "$output/$module.doccarchive" \
    --warnings-as-errors >/dev/null
  rm -rf "$staging"
  echo "docs: $module"
done
