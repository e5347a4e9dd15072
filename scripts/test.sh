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
# `child_cpu [FILE]`: sets $cpu to the CPU seconds (user + system) of every child this shell has waited for so
# far (`times` must run in this shell, not in a $(…) subshell, which has no children of its own). A background
# step passes a file of its own.
child_cpu() {
  local file=${1:-$times_file}
  times >"$file"
  cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.0f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$file")
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
  # CFLAGS=-O2: better-sqlite3 builds SQLite's one 9 MB C file with -O3, on one core at the install's end
  # (~105 s of CPU on a 2-core VM, ~61 s with -O2, the level SQLite's own build uses); a later -O wins.
  phase 'install (npm ci)' env JOBS=max CFLAGS=-O2 npm ci --no-audit --no-fund
  [ "$phase_status" -eq 0 ] || exit "$phase_status"
fi

# `step NAME COMMAND…`, in the background: runs a command into test-results/NAME.log and writes its wall-clock
# seconds (NAME.seconds), its CPU seconds with every child it waited for (NAME.cpu) and its exit status.
step() {
  local name=$1
  shift
  (
    started=$(date +%s)
    step_status=0
    "$@" >"test-results/$name.log" 2>&1 || step_status=$?
    echo "$(($(date +%s) - started))" >"test-results/$name.seconds"
    child_cpu "test-results/$name.times"
    echo "$cpu" >"test-results/$name.cpu"
    exit "$step_status"
  ) &
  pids[$name]=$!
}
# `finish NAME ROW`: waits for a step and adds its row; a failed one's log is shown unless it is a test runner's.
failed_steps=()
finish() {
  local name=$1 row=$2 step_status=0
  wait "${pids[$name]}" || step_status=$?
  timed "$row" "$(cat "test-results/$name.seconds")" "$(cat "test-results/$name.cpu")"
  if [ "$step_status" -ne 0 ]; then
    failed_steps+=("$name")
    case $name in vitest | playwright) ;; *) echo "== $name failed:"; cat "test-results/$name.log" ;; esac
  fi
}
declare -A pids
rm -f test-results/*.seconds test-results/*.cpu test-results/*.times

# Typecheck, lint and build read the sources and write only dist/: they start at once (tsc and ESLint use one
# core each). Only the end-to-end tests (and start-open.test) need the build, so the tests start as soon as it
# is done, and typecheck and lint go on beside them at a lower priority (nice): they take the core the tests
# leave idle while they wait on servers, child processes and the browser (one after the other, the tests
# started ~80 s later on a 2-core CI machine).
echo "== typecheck, lint and build (at once; the tests start when the build is done)"
tests_start=$(date +%s)
child_cpu
tests_cpu=$cpu
step typecheck nice -n 10 npm run -s typecheck
step lint nice -n 10 npm run -s lint
step build npm run -s build
# The bundles of the children Vitest's tests start (scripts/vitest-global-setup.ts) are built beside the app,
# not in Vitest's global setup, where no test ran until they were (~15 s on a 2-core CI machine).
step test-bundles npx tsx scripts/vitest-global-setup.ts
finish build '  build'
if [ "${#failed_steps[@]}" -ne 0 ]; then
  finish test-bundles '  test bundles (beside build)'
  finish typecheck '  typecheck (beside the tests)'
  finish lint '  lint (beside the tests)'
  print_timings
  exit 1
fi

# Vitest and Playwright run at once: alone, Vitest kept 1.5 of 2 cores busy and Playwright 0.9 (its tests
# mostly wait on the service, ffmpeg and the page), so one after the other left a core idle for ~8 minutes.
# Each runs in its own keyring session (its own keyring files) and writes its own reports; its lines are
# prefixed with its name. Every test already starts its own servers on ephemeral ports and its own data dir.
echo "== unit and integration tests (vitest |) and end-to-end tests (e2e |), at once"
mkdir -p "$ASSEMBLYLINE_KEYRING_HOME/vitest" "$ASSEMBLYLINE_KEYRING_HOME/e2e"
# A report left by an earlier run must not stand in for one this run failed to write.
rm -f test-results/vitest.json test-results/playwright.json
: >test-results/vitest.log
: >test-results/playwright.log
# Playwright starts as soon as the build is done; Vitest once the bundles its tests start are built too.
step playwright env ASSEMBLYLINE_KEYRING_HOME="$ASSEMBLYLINE_KEYRING_HOME/e2e" PLAYWRIGHT_JSON_OUTPUT_NAME="$PWD/test-results/playwright.json" \
  bash scripts/with-keyring.sh npx playwright test --config e2e/playwright.config.ts --reporter=list,json
# Both logs shown as they grow, each line whole and marked with its runner; each tail ends with its runner.
tail --pid="${pids[playwright]}" -n +1 -F test-results/playwright.log 2>/dev/null | sed -u 's/^/e2e    | /' &
e2e_tail=$!
finish test-bundles '  test bundles (beside build)'
# Vitest's output is kept too: the summary at the end quotes the diff of a failed assertion from it.
step vitest env ASSEMBLYLINE_KEYRING_HOME="$ASSEMBLYLINE_KEYRING_HOME/vitest" bash scripts/with-keyring.sh \
  npx vitest run --reporter=default --reporter=json --outputFile.json="$PWD/test-results/vitest.json"
tail --pid="${pids[vitest]}" -n +1 -F test-results/vitest.log 2>/dev/null | sed -u 's/^/vitest | /' &
vitest_tail=$!
finish typecheck '  typecheck (beside the tests)'
finish lint '  lint (beside the tests)'
finish vitest '  unit and integration (Vitest)'
finish playwright '  end-to-end (Playwright)'
wait "$vitest_tail" "$e2e_tail" || true
child_cpu
timed 'checks, build and tests' "$(($(date +%s) - tests_start))" "$((cpu - tests_cpu))"
status=0
[ "${#failed_steps[@]}" -eq 0 ] || status=1
print_timings
node scripts/summarize-tests.mjs test-results/vitest.json test-results/playwright.json test-results/vitest.log || status=1
exit $status
