#!/usr/bin/env bash
# npm test: every test. Unit and integration (SQLite, and PostgreSQL when its binaries are on this machine) while a
# production build is made, then end-to-end tests in Debian's headless Chromium, one worker (and shop) per core. The
# end-to-end run includes the scale-out tests (tests/e2e/scale-out.spec.ts): two servers from the build on one
# database — a shared SQLite file, and the throwaway PostgreSQL below when there is one (TEST_PG_URL stays set for
# them) — and the cluster's worker replacement and drain.
set -euo pipefail
cd "$(dirname "$0")/.."

# The end-to-end tests run in Debian's headless Chromium shell (package chromium-headless-shell): the same Blink as
# the chromium package without the browser's window machinery, it took 5.7 instead of 8.7 minutes with two workers on
# the 2-core reference machine. CHROMIUM_PATH picks another binary (e.g. /usr/bin/chromium).
CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}
if [ ! -x "$CHROMIUM" ]; then
  if [ -z "${CHROMIUM_PATH:-}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Chromium's headless shell is missing: installing Debian's chromium-headless-shell package for the end-to-end tests…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null
  else
    echo "The end-to-end tests need Chromium at $CHROMIUM. Install it with: sudo apt-get install chromium-headless-shell" >&2
    echo "(or set CHROMIUM_PATH to a Chromium binary, e.g. /usr/bin/chromium)." >&2
    exit 1
  fi
fi
export CHROMIUM_PATH=$CHROMIUM

pg_started=""
if [ -z "${TEST_PG_URL:-}" ] && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  export TEST_PG_URL=$(scripts/pg-throwaway.sh start)
  pg_started=1
  echo "PostgreSQL for integration tests: $TEST_PG_URL"
elif [ -z "${TEST_PG_URL:-}" ]; then
  echo "No PostgreSQL binaries found: integration tests and the two-server scale-out tests run on SQLite only."
fi
cleanup() { [ -n "$pg_started" ] && scripts/pg-throwaway.sh stop; return 0; }
trap cleanup EXIT

# The production build for the end-to-end tests is made while Vitest runs (it needs nothing Vitest does, and Vitest
# leaves part of the 2-core reference machine idle while it waits on PostgreSQL): ~11 s off the run. Its output is
# shown only if it fails.
started=$SECONDS
build_log=$(mktemp)
react-router build >"$build_log" 2>&1 &
build=$!
vitest_status=0
vitest run "$@" || vitest_status=$?
echo "npm test: Vitest took $((SECONDS - started)) s"
build_status=0
wait "$build" || build_status=$?
if [ "$build_status" != 0 ]; then
  echo "The production build failed:" >&2
  cat "$build_log" >&2
fi
rm -f "$build_log"
[ "$vitest_status" = 0 ] || exit "$vitest_status"
[ "$build_status" = 0 ] || exit "$build_status"
started=$SECONDS
playwright_status=0
playwright test || playwright_status=$?
echo "npm test: Playwright took $((SECONDS - started)) s"
exit "$playwright_status"
