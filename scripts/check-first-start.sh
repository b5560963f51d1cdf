#!/usr/bin/env bash
# CI: the README's first command, the way a newcomer meets it. `npm start` with an empty environment (only PATH and a
# fresh HOME; a clean clone has no .env), then /, /shop and a product page must answer 200 with the shop's HTML.
# A regression of the first command fails CI. Run from a clean clone after `npm ci` (the server builds first).
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=3000
URL="http://localhost:$PORT"
if curl -s -o /dev/null "$URL/healthz"; then
  echo "check-first-start: something already answers on port $PORT; stop it first (the README's command uses $PORT)." >&2
  exit 1
fi

home=$(mktemp -d)
log=$(mktemp)
had_data=0
[ -e data ] && had_data=1

# setsid: npm start runs `react-router build && node server.js`; its own process group can be stopped as a whole.
setsid env -i PATH="$PATH" HOME="$home" npm start >"$log" 2>&1 &
group=$!
stop() {
  kill -TERM -- "-$group" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 -- "-$group" 2>/dev/null || break; sleep 0.2; done
  kill -KILL -- "-$group" 2>/dev/null || true
  rm -rf "$home"
  # a clean clone had no data/: leave none behind
  [ "$had_data" = 1 ] || rm -rf data
}
trap stop EXIT

fail() {
  echo "check-first-start: $1" >&2
  echo "--- npm start output (last 40 lines) ---" >&2
  tail -40 "$log" >&2
  exit 1
}

for _ in $(seq 1 120); do
  if curl -sf -o /dev/null "$URL/healthz"; then break; fi
  kill -0 "$group" 2>/dev/null || fail "npm start exited before the shop answered"
  sleep 1
done
curl -sf -o /dev/null "$URL/healthz" || fail "the shop did not answer /healthz within 120 s"

page() {
  local path=$1 body
  body=$(curl -sf "$URL$path") || fail "GET $path did not answer 200"
  grep -q "Scentara" <<<"$body" || fail "GET $path answered without the shop's page"
  printf '%s' "$body"
}
page / >/dev/null
shop=$(page /shop)
product=$(grep -o 'href="/products/[a-z0-9-]*"' <<<"$shop" | head -1 | sed 's/^href="//; s/"$//')
[ -n "$product" ] || fail "/shop lists no product (the demo catalogue should be there)"
page "$product" >/dev/null
echo "check-first-start: npm start with an empty environment serves /, /shop and $product"
