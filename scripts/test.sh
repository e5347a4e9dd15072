#!/usr/bin/env bash
# The one test command (README): typecheck, lint, build, unit + integration tests (Vitest, real local
# service, real keyring), end-to-end tests (Playwright in Debian's Chromium through the browser host).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system-deps.sh
[ -d node_modules ] || npm ci
mkdir -p test-results
ASSEMBLYLINE_KEYRING_HOME="$(mktemp -d)"
export ASSEMBLYLINE_KEYRING_HOME
trap 'rm -rf "$ASSEMBLYLINE_KEYRING_HOME"' EXIT
echo "== typecheck"; npm run -s typecheck
echo "== lint"; npm run -s lint
echo "== build"; npm run -s build >/dev/null
status=0
echo "== unit and integration tests"
# Its output is kept too: the summary at the end quotes the diff of a failed assertion from it.
bash scripts/with-keyring.sh npx vitest run --reporter=default --reporter=json --outputFile.json="$PWD/test-results/vitest.json" 2>&1 | tee test-results/vitest.log || status=1
echo "== end-to-end tests"
PLAYWRIGHT_JSON_OUTPUT_NAME="$PWD/test-results/playwright.json" \
  bash scripts/with-keyring.sh npx playwright test --config e2e/playwright.config.ts --reporter=list,json || status=1
node scripts/summarize-tests.mjs test-results/vitest.json test-results/playwright.json test-results/vitest.log || status=1
exit $status
