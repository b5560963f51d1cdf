#!/usr/bin/env bash
# CI: the README's first command, the way a newcomer meets it. `npm start` with an empty environment (only PATH and a
# fresh HOME; a clean clone has no .env), then /, /shop and a product page must answer 200 with the shop's HTML.
# A regression of the first command fails CI. Run from a clean clone after `npm ci` (the server builds first).
#
# It uses the README's port, 3000, rather than a free one: passing PORT would already be configuration, and the
# check is that nothing at all needs setting. A busy port is reported as such, not mistaken for a broken start.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=3000
URL="http://localhost:$PORT"
if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null || curl -s -o /dev/null --max-time 2 "$URL/"; then
  echo "check-first-start: something already listens on port $PORT; stop it first (the README's command uses $PORT)." >&2
  exit 1
fi

home=$(mktemp -d)
log=$(mktemp)
had_data=0
[ -e data ] && had_data=1

# npm start runs `react-router build && node server.js` (npm -> sh -> node): job control gives them a process group
# of their own (its id is $!), so they stop as a whole and nothing outlives the check.
set -m
env -i PATH="$PATH" HOME="$home" npm start >"$log" 2>&1 &
group=$!
set +m
stop() {
  kill -TERM -- "-$group" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 -- "-$group" 2>/dev/null || break; sleep 0.2; done
  kill -KILL -- "-$group" 2>/dev/null || true
  rm -rf "$home" "$log"
  # a clean clone has no data/: leave none behind (and never touch one that was there before)
  if [ "$had_data" = 0 ]; then rm -rf data; fi
}
trap stop EXIT

fail() {
  echo "check-first-start: FAILED: $1" >&2
  echo "--- npm start output (last 40 lines) ---" >&2
  tail -40 "$log" >&2
  exit 1
}

up=0
for _ in $(seq 1 120); do
  if curl -sf -o /dev/null --max-time 5 "$URL/healthz"; then up=1; break; fi
  kill -0 "$group" 2>/dev/null || fail "npm start exited before the shop answered /healthz"
  sleep 1
done
[ "$up" = 1 ] || fail "the shop did not answer /healthz within 120 s"

page() {
  local path=$1 body status
  body=$(curl -s --max-time 30 -w '\n%{http_code}' "$URL$path") || fail "GET $path: no answer"
  status=${body##*$'\n'}
  body=${body%$'\n'*}
  [ "$status" = 200 ] || fail "GET $path answered $status, not 200"
  grep -qi '<!doctype html>' <<<"$body" && grep -q 'Scentara' <<<"$body" || fail "GET $path answered 200 without the shop's page"
  printf '%s' "$body"
}
page / >/dev/null
shop=$(page /shop)
product=$(grep -o 'href="/products/[^"?#]*"' <<<"$shop" | head -1 | sed 's/^href="//; s/"$//') || true
[ -n "$product" ] || fail "/shop lists no product (the demo catalogue should be there)"
page "$product" >/dev/null

# The session secret was made (or found) beside the database, owner-only, and said so in one line.
[ -f data/.auth-secret ] || fail "no data/.auth-secret after the first start"
mode=$(stat -c %a data/.auth-secret)
[ "$mode" = 600 ] || fail "data/.auth-secret has mode $mode, not 600"
said=$(grep -c 'AUTH_SECRET is not set' "$log" || true)
[ "$said" = 1 ] || fail "expected one log line about the local secret, found $said"

# One worker per core by default (WEB_CONCURRENCY unset): the start-up line says how many serve. It is written once
# every worker listens, which can come after the first worker has served the pages above (each warms up first): wait
# for it rather than read the log at once.
expected=$(node -p 'require("os").availableParallelism()')
workers=""
if [ "$expected" -gt 1 ]; then
  listening=""
  for _ in $(seq 1 120); do
    listening=$(grep -o '"workers":[0-9]*,[^}]*"msg":"Scentara is listening' "$log" || true)
    [ -n "$listening" ] && break
    kill -0 "$group" 2>/dev/null || fail "npm start exited before every worker listened"
    sleep 0.5
  done
  workers=$(grep -o '^"workers":[0-9]*' <<<"$listening" | cut -d: -f2 || true)
  [ "$workers" = "$expected" ] || fail "expected $expected worker processes (one per core) in the start-up line, found '${workers}'"
  # Each worker runs with at most two malloc arenas (server/cluster.ts SERVER_PROCESS_ENV), though the environment was
  # empty: the primary gives it to the workers it forks.
  for pid in $(grep '"msg":"worker started"' "$log" | grep -o '"pid":[0-9]*' | cut -d: -f2); do
    [ -r "/proc/$pid/environ" ] || continue
    tr '\0' '\n' <"/proc/$pid/environ" | grep -qx 'MALLOC_ARENA_MAX=2' || fail "worker $pid runs without MALLOC_ARENA_MAX=2"
    arenas_checked=$(( ${arenas_checked:-0} + 1 ))
  done
  [ "${arenas_checked:-0}" -ge 1 ] || fail "no running worker's environment could be read (\"worker started\" lines with a pid)"
fi
echo "check-first-start: npm start with an empty environment serves /, /shop and $product (200, the shop's HTML);"
echo "check-first-start: ${workers:-1} worker process(es), one per core ($expected cores)${arenas_checked:+, each with MALLOC_ARENA_MAX=2}"
echo "check-first-start: $(grep -o '"msg":"AUTH_SECRET is not set[^"]*"' "$log" | sed 's/^"msg":"//; s/"$//')"
