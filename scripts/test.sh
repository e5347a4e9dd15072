#!/usr/bin/env bash
# The one test command (README): typecheck, lint, build, unit + integration tests (Vitest, real local
# service, real keyring), end-to-end tests (Playwright in Debian's Chromium through the browser host).
# It ends with the time of each phase (wall clock and CPU, so a slow phase shows the day it appears, even
# on a busy machine) and one line: `tests: N passed, N failed, N skipped`.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
run_start=$(date +%s)
timings=()

times_file="$(mktemp)"
ASSEMBLYLINE_KEYRING_HOME="$(mktemp -d)"
export ASSEMBLYLINE_KEYRING_HOME
trap 'rm -rf "$ASSEMBLYLINE_KEYRING_HOME" "$times_file"' EXIT
# `child_cpu`: sets $cpu to the CPU seconds (user + system) of every child this shell has waited for so far
# (`times` must run in this shell, not in a $(…) subshell, which has no children of its own).
child_cpu() {
  times >"$times_file"
  cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.0f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$times_file")
}
# `timed NAME SECONDS CPU_SECONDS`: one row of the table printed at the end.
timed() { timings+=("$(printf '  %-30s %5s s' "$1" "$2")${3:+$(printf '  %6s s CPU' "$3")}"); }
print_timings() {
  child_cpu
  timed 'total' "$(($(date +%s) - run_start))" "$cpu"
  # Under .ci/run the install came first: the figure the 15-minute goal is about includes it.
  if [ -n "${ASSEMBLYLINE_INSTALL_SECONDS:-}" ]; then
    timed 'total with install' "$(($(date +%s) - run_start + ASSEMBLYLINE_INSTALL_SECONDS))" "$((cpu + ${ASSEMBLYLINE_INSTALL_CPU_SECONDS:-0}))"
  fi
  echo "== phase times (wall clock, CPU; load average now: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'))"
  printf '%s\n' "${timings[@]}"
}
# `phase NAME COMMAND…`: runs a command, timing it; its exit status is kept in $phase_status.
phase() {
  local name=$1 start cpu_before
  shift
  start=$(date +%s)
  child_cpu
  cpu_before=$cpu
  phase_status=0
  "$@" || phase_status=$?
  child_cpu
  timed "$name" "$(($(date +%s) - start))" "$((cpu - cpu_before))"
}

phase 'system packages' bash scripts/ensure-system-deps.sh
[ "$phase_status" -eq 0 ] || exit "$phase_status"
# .ci/run installs before it calls this and says how long that took.
[ -n "${ASSEMBLYLINE_INSTALL_SECONDS:-}" ] && timed 'install (npm ci)' "$ASSEMBLYLINE_INSTALL_SECONDS" "${ASSEMBLYLINE_INSTALL_CPU_SECONDS:-?}"
if [ ! -d node_modules ]; then
  # JOBS: node-gyp compiles a native addon with both cores where no prebuilt binary can be downloaded.
  phase 'install (npm ci)' env JOBS=max npm ci --no-audit --no-fund
  [ "$phase_status" -eq 0 ] || exit "$phase_status"
fi

# Typecheck, lint and build read the sources and write only dist/: they run at once (tsc and ESLint use one
# core each), each into its own log, shown when it fails.
echo "== typecheck, lint and build (at once)"
static_start=$(date +%s)
child_cpu
static_cpu=$cpu
declare -A pids
for step in typecheck lint build; do
  (
    started=$(date +%s)
    step_status=0
    npm run -s "$step" >"test-results/$step.log" 2>&1 || step_status=$?
    echo "$(($(date +%s) - started))" >"test-results/$step.seconds"
    exit "$step_status"
  ) &
  pids[$step]=$!
done
static_failed=0
for step in typecheck lint build; do
  step_status=0
  wait "${pids[$step]}" || step_status=$?
  # Their CPU is counted together below: the shell learns a child's CPU when it has waited for it.
  timed "  $step" "$(cat "test-results/$step.seconds")" ''
  if [ "$step_status" -ne 0 ]; then
    echo "== $step failed:"
    cat "test-results/$step.log"
    static_failed=1
  fi
done
child_cpu
timed 'typecheck + lint + build' "$(($(date +%s) - static_start))" "$((cpu - static_cpu))"
if [ "$static_failed" -ne 0 ]; then
  print_timings
  exit 1
fi

status=0
# Vitest and Playwright run at once: alone, Vitest kept 1.5 of 2 cores busy and Playwright 0.9 (its tests
# mostly wait on the service, ffmpeg and the page), so one after the other left a core idle for ~8 minutes.
# Each runs in its own keyring session (its own keyring files) and writes its own reports; its lines are
# prefixed with its name. Every test already starts its own servers on ephemeral ports and its own data dir.
echo "== unit and integration tests (vitest |) and end-to-end tests (e2e |), at once"
mkdir -p "$ASSEMBLYLINE_KEYRING_HOME/vitest" "$ASSEMBLYLINE_KEYRING_HOME/e2e"
# Its output is kept too: the summary at the end quotes the diff of a failed assertion from it.
# Each writes its own duration: the other may end first.
run_vitest() {
  local started
  started=$(date +%s)
  ASSEMBLYLINE_KEYRING_HOME="$ASSEMBLYLINE_KEYRING_HOME/vitest" bash scripts/with-keyring.sh \
    npx vitest run --reporter=default --reporter=json --outputFile.json="$PWD/test-results/vitest.json" >test-results/vitest.log 2>&1 || { echo "$(($(date +%s) - started))" >test-results/vitest.seconds; return 1; }
  echo "$(($(date +%s) - started))" >test-results/vitest.seconds
}
run_playwright() {
  local started
  started=$(date +%s)
  ASSEMBLYLINE_KEYRING_HOME="$ASSEMBLYLINE_KEYRING_HOME/e2e" PLAYWRIGHT_JSON_OUTPUT_NAME="$PWD/test-results/playwright.json" \
    bash scripts/with-keyring.sh npx playwright test --config e2e/playwright.config.ts --reporter=list,json >test-results/playwright.log 2>&1 || { echo "$(($(date +%s) - started))" >test-results/playwright.seconds; return 1; }
  echo "$(($(date +%s) - started))" >test-results/playwright.seconds
}
# A report left by an earlier run must not stand in for one this run failed to write.
rm -f test-results/vitest.json test-results/playwright.json
: >test-results/vitest.log
: >test-results/playwright.log
tests_start=$(date +%s)
run_vitest &
vitest_pid=$!
run_playwright &
e2e_pid=$!
# Both logs shown as they grow, each line whole and marked with its runner; each tail ends with its runner.
tail --pid="$vitest_pid" -n +1 -F test-results/vitest.log 2>/dev/null | sed -u 's/^/vitest | /' &
vitest_tail=$!
tail --pid="$e2e_pid" -n +1 -F test-results/playwright.log 2>/dev/null | sed -u 's/^/e2e    | /' &
e2e_tail=$!
# The shell counts a child's CPU once it has waited for it: each runner's CPU is the difference across its wait.
child_cpu
cpu_before=$cpu
vitest_status=0
wait "$vitest_pid" || vitest_status=$?
child_cpu
vitest_cpu=$((cpu - cpu_before))
cpu_before=$cpu
e2e_status=0
wait "$e2e_pid" || e2e_status=$?
child_cpu
e2e_cpu=$((cpu - cpu_before))
wait "$vitest_tail" "$e2e_tail" || true
timed '  unit and integration (Vitest)' "$(cat test-results/vitest.seconds)" "$vitest_cpu"
timed '  end-to-end (Playwright)' "$(cat test-results/playwright.seconds)" "$e2e_cpu"
timed 'tests (both, at once)' "$(($(date +%s) - tests_start))" "$((vitest_cpu + e2e_cpu))"
[ "$vitest_status" -eq 0 ] || status=1
[ "$e2e_status" -eq 0 ] || status=1
print_timings
node scripts/summarize-tests.mjs test-results/vitest.json test-results/playwright.json test-results/vitest.log || status=1
exit $status
