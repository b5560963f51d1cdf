#!/usr/bin/env bash
# npm test: every test. Unit and integration (SQLite, and PostgreSQL when its binaries are on this machine), then a
# production build and end-to-end tests in Debian's Chromium. The end-to-end run includes the scale-out tests
# (tests/e2e/scale-out.spec.ts): two servers from the build on one database — a shared SQLite file, and the throwaway
# PostgreSQL below when there is one (TEST_PG_URL stays set for them) — and the cluster's worker replacement and drain.
set -euo pipefail
cd "$(dirname "$0")/.."

CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Chromium is missing: installing Debian's chromium package for the end-to-end tests…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "The end-to-end tests need Chromium at $CHROMIUM. Install it with: sudo apt-get install chromium" >&2
    echo "(or set CHROMIUM_PATH to a Chromium binary)." >&2
    exit 1
  fi
fi

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

vitest run "$@"
react-router build >/dev/null
playwright test
