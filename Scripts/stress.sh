#!/usr/bin/env bash
# The pipeline's kill test at scale (PipelineKillTests; not part of .ci/run).
#
# Each scenario is another seeded three-day script. Its extension process is SIGKILLed
# STK_STRESS_KILLS times (640 unless set) at random points while the app process drains, drops
# about half the notifications and is SIGKILLed too; every day's per-app totals must then equal the
# reference's. Then the control's two-write glue runs the same script and must be caught falling
# short. STK_STRESS_SCALE (1 unless set) multiplies the 5 scenarios: the default makes 3,200
# extension kills, in about 3 minutes on 2 busy cores.
#
# Prints one line per scenario with its figures, then the total.
set -euo pipefail
cd "$(dirname "$0")/.."

scale=${STK_STRESS_SCALE:-1}
kills=${STK_STRESS_KILLS:-640}
scenarios=$((5 * scale))
started=$SECONDS
log=$(mktemp)
trap 'rm -f "$log"' EXIT

swift build --build-tests >"$log" 2>&1 || { cat "$log"; exit 1; }
status=0
STK_PIPELINE_STRESS_SCENARIOS=$scenarios STK_PIPELINE_STRESS_KILLS=$kills \
  swift test --skip-build --filter PipelineKillStressTests >"$log" 2>&1 || status=$?
grep -E '^scenario ' "$log" || true
if [ "$status" -ne 0 ]; then
  grep -E 'error|failed' "$log" || tail -20 "$log"
  printf 'stress FAILED after %ss\n' "$((SECONDS - started))"
  exit "$status"
fi
printf '%s in %ss\n' "$(grep -E '^stress total' "$log" || echo 'stress: no total')" \
  "$((SECONDS - started))"
