#!/usr/bin/env bash
# ScreenTimeKit under stress: what Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/Reliability.md
# promises, at a scale `swift test` has no time for. Six scenarios, each a test that runs only
# when STK_STRESS is set (full or short) and prints a `STRESS <scenario>: <figures>` line, which
# this script shows:
#
#   1. increments      8 processes x 5,000 `update`s of one FileStore key: every number once
#                      (SharedStoreTests/IncrementStressTests)
#   2. kill storm      2,000 SIGKILLs of writer processes while reader processes read: no torn
#                      read, no acknowledged write lost, the lock's wait after a kill; then the
#                      in-place control, which must tear (SharedStoreTests/KillStormStressTests)
#   3. outbox          producers publish to a SequencedOutbox while the OutboxConsumer process
#                      is SIGKILLed again and again: each entry applied exactly once
#                      (SequenceTrackingTests/OutboxStressTests)
#   4. pipeline kills  the pipeline's kill test over STK_STRESS_SCALE x 5 seeded scripts (1 x 5
#                      unless set), each with STK_STRESS_KILLS extension kills (640 unless set)
#                      and its control, every other script on a device a relaunch may find
#                      locked (PipelineKillTests/PipelineKillStressTests)
#   5. disk full       a 1 MiB tmpfs filled up: ENOSPC as a typed error, old values intact, the
#                      store working once space is freed; root only, otherwise skipped
#                      (SharedStoreTests/DiskFullStressTests)
#   6. planner sweep   the monitoring planner over every zone x every day of 2020-2030 x day
#                      starts 00:00, 04:00 and 23:30 (STK_FULL_SWEEP=1): each daily activity's
#                      real occurrence within the platform's limits, and re-arms at every 15th
#                      minute and each clock change of every transition day of every distinct
#                      zone rule and of one seeded day per zone; --short runs the seeded sample
#                      `swift test` runs (ActivityPlanningTests/PlanSweepTests). The re-arms at
#                      every 15th minute of every zone-day are --plan-sweep, below: hours long
#
# Usage: Scripts/stress.sh [--short] [--skip-build]
#        Scripts/stress.sh --plan-sweep[=k/n] [--skip-build]
#   --short       small counts (one script of 80 kills for the pipeline), under a minute:
#                 what .ci/run runs
#   --skip-build  use the build `swift test` or `swift build --build-tests` made (with
#                 --plan-sweep, the release one: `swift build -c release --build-tests`)
#   --plan-sweep  only the planner's whole re-arm sweep (STK_FULL_SWEEP=rearm,
#                 PlanSweepTests/wholeRearmSweep, code in Tests/ActivityPlanningTests/Internal/
#                 RearmSweep.swift), on a release build of the tests: a re-arm at every 15th
#                 minute of every zone x every day of 2020-2030 x day starts 00:00, 04:00 and
#                 23:30, at the minute and half minute before each day start, and at every clock
#                 change and the minute before it, each plan checked: about 1.18 million
#                 re-arms a zone, 523 million over Linux's 443 zones. It does not fit one
#                 sitting: 70 us of CPU a re-arm in release (measured 2026-11-27), so 10
#                 core-hours, 6 to 7 hours on 2 quiet cores; a shard of 1/32 (14 zones, 16.5
#                 million re-arms) took 11 to 13 minutes on 2 quiet cores, 29 to 34 when shared.
#                 =k/n runs the zones k, k+n, k+2n, ... (1-based, in identifier order), to split
#                 it over runs or machines; each zone prints a "SWEEP zone" line as it ends, and
#                 the run its total and time (Reliability.md, as above, has the figures).
#
# Prints one line per scenario, then the total; exits 1 when a scenario fails, with its errors.
# The full run takes 3 to 4 minutes on 2 busy cores
# (Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/Reliability.md has its
# figures), plus about 5 for the planner sweep.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=full
build=1
plan_sweep=
for argument in "$@"; do
  case "$argument" in
    --short) mode=short ;;
    --skip-build) build=0 ;;
    --plan-sweep) plan_sweep=1/1 ;;
    --plan-sweep=*) plan_sweep=${argument#--plan-sweep=} ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "stress.sh: unknown option '$argument' (try --help)" >&2
      exit 2
      ;;
  esac
done

if [ -n "$plan_sweep" ]; then
  # The whole re-arm sweep alone, printed as it goes: it runs for hours.
  began=$SECONDS
  if [ "$build" = 1 ] && ! built=$(swift build -c release --build-tests 2>&1); then
    printf '%s\n' "$built" | grep -E 'error' | head -20
    exit 1
  fi
  status=0
  STK_FULL_SWEEP=rearm STK_SWEEP_SHARD=$plan_sweep swift test -c release --skip-build \
    --filter 'PlanSweepTests/wholeRearmSweep' 2>&1 | grep -E '^(SWEEP|STRESS) |✘|error' \
    || status=$?
  # pipefail: a failing test, or no line at all, fails the run.
  if [ "$status" -ne 0 ]; then
    printf 'planner whole re-arm sweep (shard %s) FAILED after %ss\n' "$plan_sweep" \
      "$((SECONDS - began))"
    exit 1
  fi
  printf 'planner whole re-arm sweep (shard %s) passed in %ss\n' "$plan_sweep" \
    "$((SECONDS - began))"
  exit 0
fi

full_sweep=1
if [ "$mode" = short ]; then
  full_sweep=0
  scripts=1
  kills=${STK_STRESS_KILLS:-80}
else
  scripts=$((5 * ${STK_STRESS_SCALE:-1}))
  kills=${STK_STRESS_KILLS:-640}
fi

started=$SECONDS
log=$(mktemp)
trap 'rm -f "$log"' EXIT

if [ "$build" = 1 ]; then
  swift build --build-tests >"$log" 2>&1 || { cat "$log"; exit 1; }
fi

failed=0
skipped=0
# Runs the tests matching $2 and prints the scenario's line: its STRESS lines joined with "; ".
scenario() {
  local name=$1 filter=$2 began=$SECONDS status=0 figures
  STK_STRESS=$mode STK_PIPELINE_STRESS_SCENARIOS=$scripts STK_PIPELINE_STRESS_KILLS=$kills \
    STK_FULL_SWEEP=$full_sweep swift test --skip-build --filter "$filter" >"$log" 2>&1 || status=$?
  figures=$(grep -E '^STRESS ' "$log" | sed -E "s/^STRESS ${name}: //; s/^STRESS //" \
    | awk 'NR > 1 { printf "; " } { printf "%s", $0 }')
  if [ "$status" -ne 0 ] || [ -z "$figures" ]; then
    failed=$((failed + 1))
    printf '%s: FAILED after %ss (status %s) %s\n' "$name" "$((SECONDS - began))" "$status" \
      "${figures:-(no STRESS line: did the filter match nothing?)}"
    grep -E '✘|error|failed|XCTAssert' "$log" | head -20 | sed 's/^/    /' || tail -20 "$log"
  else
    # A scenario that cannot run here (disk full without root) says "skipped: why".
    case "$figures" in skipped*) skipped=$((skipped + 1)) ;; esac
    printf '%s: %s [%ss]\n' "$name" "$figures" "$((SECONDS - began))"
  fi
}

scenario "increments" 'IncrementStressTests'
scenario "kill storm" 'KillStormStressTests'
scenario "outbox" 'OutboxStressTests'
scenario "pipeline kills" 'PipelineKillStressTests'
scenario "disk full" 'DiskFullStressTests'
scenario "planner sweep" 'PlanSweepTests'

if [ "$failed" -ne 0 ]; then
  printf 'stress (%s) FAILED: %s of 6 scenarios in %ss\n' "$mode" "$failed" "$((SECONDS - started))"
  exit 1
fi
if [ "$skipped" -ne 0 ]; then
  printf 'stress (%s) passed: %s of 6 scenarios, %s skipped, in %ss\n' "$mode" \
    "$((6 - skipped))" "$skipped" "$((SECONDS - started))"
else
  printf 'stress (%s) passed: 6 scenarios in %ss\n' "$mode" "$((SECONDS - started))"
fi
