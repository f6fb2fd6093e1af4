#!/usr/bin/env bash
# The server Playwright tests run against (playwright.config.ts starts it): a fresh SQLite database
# and data directory, migrations, the demo users, a production build, `next start` on port 3100.
# The build goes to its own directory (data/.next-e2e, via next.config.ts) so that other `next build`
# runs in the tree cannot replace files under the running server.
# E2E_SKIP_BUILD=1 reuses the existing e2e build (faster when only tests changed).
set -euo pipefail
cd "$(dirname "$0")/.."

export NEXT_TELEMETRY_DISABLED=1
export DATABASE_URL="file:./data/e2e.db"
export TRACEFOLD_DATA_DIR="./data/e2e"
export TRACEFOLD_NEXT_DIST_DIR="data/.next-e2e"
export TRACEFOLD_TSCONFIG="tsconfig.e2e.json"
export NEXTAUTH_URL="http://127.0.0.1:${E2E_PORT:-3100}"
export NEXTAUTH_SECRET="${NEXTAUTH_SECRET:-tracefold-e2e-secret-not-for-production}"
# The judge calibration report the run page reads (a fixture: its figures are known to the specs).
export TRACEFOLD_JUDGE_CALIBRATION="${TRACEFOLD_JUDGE_CALIBRATION:-tests/fixtures/judge-calibration.json}"

rm -rf ./data/e2e ./data/e2e.db ./data/e2e.db-wal ./data/e2e.db-shm ./data/e2e.db-journal
mkdir -p ./data

npx --no-install tsx scripts/db-migrate.ts
npx --no-install tsx scripts/seed-users.ts

# next build points next-env.d.ts at its own dist dir; put back what the tree had (or, failing that,
# point it at .next) so `tsc -p tsconfig.json` keeps working — also when the build fails or is stopped.
saved_env_dts="$(cat next-env.d.ts 2>/dev/null || true)"
case "$saved_env_dts" in *data/.next-e2e*) saved_env_dts="" ;; esac
restore_env_dts() {
  if [ -n "$saved_env_dts" ]; then printf '%s\n' "$saved_env_dts" > next-env.d.ts
  elif [ -f next-env.d.ts ]; then sed -i 's#\./data/\.next-e2e/#./.next/#g' next-env.d.ts; fi
}
if [ "${E2E_SKIP_BUILD:-0}" != "1" ] || [ ! -f "$TRACEFOLD_NEXT_DIST_DIR/BUILD_ID" ]; then
  trap restore_env_dts EXIT INT TERM
  npx --no-install next build
  restore_env_dts
  trap - EXIT INT TERM
fi

exec npx --no-install next start -H 127.0.0.1 -p "${E2E_PORT:-3100}"
