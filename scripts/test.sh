#!/usr/bin/env bash
# `npm test`: every test — type checks, the architecture and format checks, unit tests, the CLI after a plain `npm install` on a fresh clone, integration tests on SQLite and PostgreSQL, and
# Playwright end-to-end tests in Debian's chromium. Ends with one summary line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh || { echo "tests: 0 passed, 1 failed"; exit 1; }
logs=$(mktemp -d)
status=0
stage() {
  local name=$1; shift
  echo "━━ $name"
  if "$@" 2>&1 | tee "$logs/$name.log"; then :; else status=1; echo "✗ $name failed"; fi
}
stage typecheck npm run --silent typecheck
stage lint npm run --silent lint:arch
stage format npm run --silent lint:format
stage unit node scripts/run-node-tests.mjs unit
stage install bash scripts/check-fresh-install.sh
bash scripts/ensure-postgres.sh || status=1
stage db node scripts/run-node-tests.mjs db
stage e2e npx --no-install playwright test --reporter=line
passed=0; failed=0
for name in unit db; do
  p=$(grep -E '^(#|ℹ) pass [0-9]+' "$logs/$name.log" | tail -1 | awk '{print $3}'); f=$(grep -E '^(#|ℹ) fail [0-9]+' "$logs/$name.log" | tail -1 | awk '{print $3}')
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
done
# Playwright's own summary lines ("  47 passed (5.0m)", "  2 failed"), not server log lines that
# happen to end in a digit before "failed" (a job id such as …hr5 failed).
p=$(grep -E '^ +[0-9]+ passed' "$logs/e2e.log" | tail -1 | awk '{print $1}'); f=$(grep -E '^ +[0-9]+ failed' "$logs/e2e.log" | tail -1 | awk '{print $1}')
passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
if grep -q '^fresh install: ok' "$logs/install.log"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "tests: $passed passed, $failed failed"
exit $status
