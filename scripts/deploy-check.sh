#!/usr/bin/env bash
# npm run check:deploy — docs/deploy.md's setup, started on this machine and checked from outside:
#   nginx from Debian with deploy/nginx/scentara.conf (TLS with a certificate from a throwaway local CA),
#   two app servers started as deploy/systemd/scentara@.service starts them, with deploy/scentara.env.example's
#   settings, on one throwaway PostgreSQL (a role and database made as the recipe says),
# then scripts/deploy-check.ts checks HTTPS, the redirect, HSTS, Secure cookies, that the client's address reaches the
# app's logs and sign-in limits, that a price changed through one server shows on the other, nginx's static cache, and
# a rolling restart without a failed request. Prints PASS/FAIL per check; exits 1 when any fails, 2 when it can't run.
# Everything it starts is stopped and removed on exit (DEPLOY_CHECK_KEEP=1 keeps the work folder to read the logs).
#
# Needs PostgreSQL's binaries (/usr/lib/postgresql/*/bin), openssl, curl and nginx; as root it installs nginx with
# apt-get when missing. Ports (override with the variables): HTTPS 18443, HTTP 18080, app servers 13471 and 13472,
# PostgreSQL 54393. DEPLOY_CHECK_BUILD_DIR=<dir> reuses a production build instead of building into the work folder
# (a folder beside the project's node_modules, e.g. build/ after npm run build). DEPLOY_CHECK_SKIP_RESTART=1 leaves
# out the rolling restart (the longest check: two server starts).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
export PATH="$ROOT/node_modules/.bin:$PATH:/usr/sbin:/sbin"

NAME=${DEPLOY_CHECK_NAME:-shop.scentara.test}
HTTPS_PORT=${DEPLOY_CHECK_HTTPS_PORT:-18443}
HTTP_PORT=${DEPLOY_CHECK_HTTP_PORT:-18080}
APP_A=${DEPLOY_CHECK_PORT_A:-13471}
APP_B=${DEPLOY_CHECK_PORT_B:-13472}
PGPORT=${DEPLOY_CHECK_PGPORT:-54393}
ADMIN_EMAIL=owner@$NAME

TEMPLATE_NGINX=deploy/nginx/scentara.conf
TEMPLATE_UNIT=deploy/systemd/scentara@.service
TEMPLATE_ENV=deploy/scentara.env.example

STARTED=$(date +%s)
elapsed() { echo "$(($(date +%s) - STARTED)) s"; }
say() { printf '\n== %s (%s)\n' "$*" "$(elapsed)"; }
FAILED=0
pass() { printf 'PASS  %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*"; FAILED=$((FAILED + 1)); }
cannot() { printf '\ncheck:deploy cannot run: %s\n' "$*" >&2; exit 2; }

# --- What the machine needs ----------------------------------------------------------------------------------------
PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -n "$PGBIN" ] && [ -x "$PGBIN/initdb" ] || cannot "PostgreSQL's binaries are missing (sudo apt-get install postgresql)"
command -v openssl >/dev/null || cannot "openssl is missing (sudo apt-get install openssl)"
command -v curl >/dev/null || cannot "curl is missing (sudo apt-get install curl)"
[ -x node_modules/.bin/node ] || cannot "node_modules is missing: run npm ci first"
NGINX=$(command -v nginx || true)
if [ -z "$NGINX" ]; then
  if [ "$(id -u)" = 0 ]; then
    say "Installing nginx from Debian (apt-get install -y nginx)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y nginx >/tmp/scentara-deploy-check-apt.log 2>&1 ||
      { tail -20 /tmp/scentara-deploy-check-apt.log; cannot "apt-get install nginx failed (log above)"; }
    echo "nginx installed. On a machine with systemd, Debian also starts its own nginx service on port 80:"
    echo "stop it with 'systemctl disable --now nginx' if this machine shouldn't serve web pages."
    NGINX=$(command -v nginx)
  else
    cannot "nginx is missing and this is not root: install it with 'sudo apt-get install nginx' (or run this as root), then run it again"
  fi
fi
for port in "$HTTPS_PORT" "$HTTP_PORT" "$APP_A" "$APP_B" "$PGPORT"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    cannot "port $port is in use (set DEPLOY_CHECK_HTTPS_PORT, _HTTP_PORT, _PORT_A, _PORT_B or _PGPORT)"
  fi
done

# --- A work folder, and everything removed on exit -----------------------------------------------------------------
WORK=$(mktemp -d /tmp/scentara-deploy-check.XXXXXX)
chmod 755 "$WORK"
mkdir -p "$WORK"/{etc,log,run,tls,var/media,var/backups,acme,nginx/cache,nginx/temp}
PGDATA_DIR=/tmp/scentara-deploy-check-pg-$PGPORT
NGINX_PID=
cleanup() {
  local status=$?
  set +e
  for pid in ${BUILD_PID:-} ${ADMIN_PID:-}; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  if [ -n "$NGINX_PID" ]; then kill "$NGINX_PID" 2>/dev/null; wait "$NGINX_PID" 2>/dev/null; fi
  for pidfile in "$WORK"/run/app-*.pid; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null && for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null
  done
  PGPORT=$PGPORT PGDATA=$PGDATA_DIR PGBIN=$PGBIN bash scripts/pg-throwaway.sh stop
  if [ -n "${DEPLOY_CHECK_KEEP:-}" ]; then echo "Work folder kept: $WORK"; else rm -rf "$WORK"; fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "check:deploy: $TEMPLATE_NGINX, $TEMPLATE_UNIT and $TEMPLATE_ENV, run locally as https://$NAME:$HTTPS_PORT"
echo "work folder $WORK"

# --- The deploy files themselves -----------------------------------------------------------------------------------
say "The systemd unit"
UNIT_DIR=$(sed -n 's/^WorkingDirectory=//p' "$TEMPLATE_UNIT")
UNIT_ENV=$(sed -n 's/^Environment=//p' "$TEMPLATE_UNIT")
UNIT_EXEC=$(sed -n 's/^ExecStart=//p' "$TEMPLATE_UNIT")
[ -n "$UNIT_DIR" ] && [ -n "$UNIT_EXEC" ] || cannot "$TEMPLATE_UNIT has no WorkingDirectory or ExecStart"
if command -v systemd-analyze >/dev/null; then
  mkdir -p "$WORK/unit"
  sed "s#$UNIT_DIR#$ROOT#g" "$TEMPLATE_UNIT" >"$WORK/unit/scentara@.service"
  verify=$(cd "$WORK/unit" && systemd-analyze verify --man=no "./scentara@$APP_A.service" 2>&1) || true
  if [ -z "$verify" ]; then pass "systemd-analyze verify: the unit has no unknown or misplaced settings"; else fail "systemd-analyze verify: $verify"; fi
  exposure=$(cd "$WORK/unit" && systemd-analyze security --offline=yes "./scentara@$APP_A.service" 2>/dev/null | grep -o 'Overall exposure level.*' || true)
  echo "      systemd-analyze security: ${exposure:-not available}"
else
  echo "      (systemd-analyze is not installed: the unit's syntax is not checked)"
fi
echo "      servers start as the unit starts them: cd $UNIT_DIR (here $ROOT); env -i + EnvironmentFile + $UNIT_ENV; $UNIT_EXEC"

# --- The production build ------------------------------------------------------------------------------------------
if [ -n "${DEPLOY_CHECK_BUILD_DIR:-}" ]; then
  BUILD=$(cd "$DEPLOY_CHECK_BUILD_DIR" && pwd)
  [ -f "$BUILD/server/index.js" ] || cannot "DEPLOY_CHECK_BUILD_DIR=$BUILD has no server/index.js"
  say "Reusing the build in $BUILD"
else
  say "Building the shop (npm run build) into $WORK/build, while PostgreSQL and the certificate are made"
  BUILD=$WORK/build
  # The build's server imports packages by name: they resolve through a node_modules beside it.
  ln -s "$ROOT/node_modules" "$WORK/node_modules"
  BUILD_DIR=$BUILD NODE_ENV=production react-router build >"$WORK/log/build.log" 2>&1 &
  BUILD_PID=$!
fi

# --- PostgreSQL: a throwaway server, then the role and database as docs/deploy.md makes them ----------------------
say "PostgreSQL on port $PGPORT"
PGPORT=$PGPORT PGDATA=$PGDATA_DIR PGBIN=$PGBIN bash scripts/pg-throwaway.sh stop
PGPORT=$PGPORT PGDATA=$PGDATA_DIR PGBIN=$PGBIN bash scripts/pg-throwaway.sh start >/dev/null
DB_PASSWORD=$(openssl rand -hex 16)
"$PGBIN/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -q <<SQL
create role scentara login password '$DB_PASSWORD';
create database scentara owner scentara;
\connect scentara
create extension if not exists pg_trgm;
SQL
echo "      role scentara (no superuser), database scentara, extension pg_trgm"

# --- TLS: a local CA and a certificate for the shop's name ---------------------------------------------------------
say "A local certificate authority and a certificate for $NAME"
(
  cd "$WORK/tls"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=Scentara deploy-check CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -keyout ca.key -out ca.crt 2>/dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=$NAME" -keyout privkey.pem -out shop.csr 2>/dev/null
  printf 'subjectAltName=DNS:%s\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n' "$NAME" >shop.ext
  openssl x509 -req -in shop.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile shop.ext -out fullchain.pem 2>/dev/null
  chmod 600 ca.key privkey.pem
)
openssl verify -CAfile "$WORK/tls/ca.crt" "$WORK/tls/fullchain.pem" >/dev/null && echo "      $WORK/tls/fullchain.pem, signed by $WORK/tls/ca.crt"

# --- The environment file: the example, with this machine's values -------------------------------------------------
say "The environment file ($TEMPLATE_ENV with local values)"
ENV_FILE=$WORK/etc/scentara.env
cp "$TEMPLATE_ENV" "$ENV_FILE"
chmod 600 "$ENV_FILE"
setting() { # KEY VALUE: replaces the KEY= line (or its commented '# KEY=' line), or appends it
  awk -v k="$1" -v v="$2" 'BEGIN { done = 0 } !done && ($0 ~ "^" k "=" || $0 ~ "^# " k "=") { print k "=" v; done = 1; next } { print } END { if (!done) print k "=" v }' \
    "$ENV_FILE" >"$ENV_FILE.new" && mv "$ENV_FILE.new" "$ENV_FILE"
  case "$1" in AUTH_SECRET) shown='(32 random bytes)' ;; DATABASE_URL) shown=${2/$DB_PASSWORD/***} ;; *) shown=$2 ;; esac
  echo "      $1=$shown"
}
setting PUBLIC_BASE_URL "https://$NAME:$HTTPS_PORT"
setting AUTH_SECRET "$(openssl rand -base64 32 | tr '+/' '-_' | tr -d '=\n')"
setting DATABASE_URL "postgres://scentara:$DB_PASSWORD@127.0.0.1:$PGPORT/scentara"
setting MEDIA_DIR "$WORK/var/media"
setting BACKUP_DIR "$WORK/var/backups"
# No real provider or courier keys here: the shop's simulated ones, which an https:// shop allows only when told.
setting PAYMENT_PROVIDER simulated
setting ALLOW_TEST_PAYMENTS true
setting ALLOW_TEST_DELIVERIES true
# Products to change.
setting SEED_DEMO true

if [ -n "${BUILD_PID:-}" ]; then
  say "Waiting for the build"
  if ! wait "$BUILD_PID"; then
    tail -30 "$WORK/log/build.log"
    cannot "the build failed (log above)"
  fi
fi

# --- The two app servers, started as systemd starts scentara@PORT --------------------------------------------------
say "Two app servers, ports $APP_A and $APP_B"
# The launcher the checker also uses to restart a server: a clean environment (env -i, as systemd gives a service)
# with the environment file's variables, the unit's Environment= line and its ExecStart, from the unit's folder.
START_APP=$WORK/start-app.sh
{
  echo '#!/usr/bin/env bash'
  echo '# Starts one app server as systemd starts scentara@PORT (written by scripts/deploy-check.sh). Usage: start-app.sh PORT'
  echo 'port=$1'
  printf 'cd %q\n' "$ROOT"
  printf 'echo $$ >%q/run/app-$port.pid\n' "$WORK"
  # systemd applies Environment= first and lets the EnvironmentFile override it; BUILD_DIR is the check's own build.
  printf 'exec env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=%q LANG=C.UTF-8 %s bash -c %q %q BUILD_DIR=%q %s >>%q/log/app-$port.log 2>&1\n' \
    "$WORK" "${UNIT_ENV//%i/\$port}" 'set -a; . "$0"; set +a; exec env "$@"' "$ENV_FILE" "$BUILD" "${UNIT_EXEC//$UNIT_DIR/$ROOT}" "$WORK"
} >"$START_APP"
chmod +x "$START_APP"
wait_healthy() { # PORT SECONDS
  local deadline=$(($(date +%s) + $2))
  until curl -fsS -o /dev/null "http://127.0.0.1:$1/healthz" 2>/dev/null; do
    local pid
    pid=$(cat "$WORK/run/app-$1.pid" 2>/dev/null || true)
    if [ "$(date +%s)" -gt "$deadline" ] || { [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; }; then
      echo "--- app server $1's log:"; tail -30 "$WORK/log/app-$1.log"
      return 1
    fi
    sleep 0.3
  done
}
# The first server migrates the new database; the second starts on a ready one (docs/deploy.md: one, then the other).
"$START_APP" "$APP_A" &
wait_healthy "$APP_A" 90 || cannot "app server $APP_A did not start"
echo "      $APP_A healthy ($(elapsed))"
"$START_APP" "$APP_B" &
# The admin account, as the recipe makes it, while B starts (A has migrated the database).
(cd "$ROOT" && exec env -i PATH="$ROOT/node_modules/.bin:/usr/local/bin:/usr/bin:/bin" HOME="$WORK" LANG=C.UTF-8 \
  bash -c 'set -a; . "$0"; set +a; exec npm run --silent create-admin -- "$1"' "$ENV_FILE" "$ADMIN_EMAIL" >"$WORK/log/create-admin.log" 2>&1) &
ADMIN_PID=$!
wait_healthy "$APP_B" 90 || cannot "app server $APP_B did not start"
echo "      $APP_B healthy ($(elapsed))"

# --- nginx with the site file: only names, ports and paths substituted ---------------------------------------------
say "nginx on https://$NAME:$HTTPS_PORT and http://$NAME:$HTTP_PORT"
SITE=$WORK/nginx/scentara.conf
sed -e "s#/etc/letsencrypt/live/shop\.example\.co\.za/fullchain\.pem#$WORK/tls/fullchain.pem#" \
  -e "s#/etc/letsencrypt/live/shop\.example\.co\.za/privkey\.pem#$WORK/tls/privkey.pem#" \
  -e "s#shop\.example\.co\.za#$NAME#g" \
  -e "s#listen 443\([ ;]\)#listen 127.0.0.1:$HTTPS_PORT\1#; s#listen \[::\]:443\([ ;]\)#listen [::1]:$HTTPS_PORT\1#" \
  -e "s#listen 80\([ ;]\)#listen 127.0.0.1:$HTTP_PORT\1#; s#listen \[::\]:80\([ ;]\)#listen [::1]:$HTTP_PORT\1#" \
  -e "s#server 127\.0\.0\.1:3001 #server 127.0.0.1:$APP_A #; s#server 127\.0\.0\.1:3002 #server 127.0.0.1:$APP_B #" \
  -e "s#/var/cache/nginx/scentara#$WORK/nginx/cache/scentara#" \
  -e "s#/var/log/nginx/#$WORK/log/nginx-#" \
  -e "s#root /var/www/html;#root $WORK/acme;#" \
  "$TEMPLATE_NGINX" >"$SITE"
if ! ip -6 addr show lo 2>/dev/null | grep -q '::1'; then sed -i '/listen \[::1\]/d' "$SITE"; fi
# Every changed line must be a name, a port or a path: the check runs the file the recipe installs.
changed=$(diff "$TEMPLATE_NGINX" "$SITE" | grep '^[<>]' | grep -Ev '^[<>] *#' | grep -Ev '^[<>] +(listen|server_name|ssl_certificate|ssl_certificate_key|server 127\.0\.0\.1:[0-9]+|proxy_cache_path|access_log|error_log|root) ' || true)
if [ -z "$changed" ]; then
  pass "the nginx site differs from $TEMPLATE_NGINX only in names, ports and paths ($(diff "$TEMPLATE_NGINX" "$SITE" | grep -c '^>') lines)"
else
  fail "the nginx site changed more than names, ports and paths: $changed"
fi
# nginx's own frame: Debian's /etc/nginx/nginx.conf (user www-data, mime types, its SSL and gzip defaults), with its
# pid, logs and temporary files moved to the work folder and sites-enabled/ replaced by the site.
TEMP_PATHS="client_body_temp_path $WORK/nginx/temp/body; proxy_temp_path $WORK/nginx/temp/proxy; fastcgi_temp_path $WORK/nginx/temp/fastcgi; uwsgi_temp_path $WORK/nginx/temp/uwsgi; scgi_temp_path $WORK/nginx/temp/scgi;"
if [ -f /etc/nginx/nginx.conf ] && grep -q 'include /etc/nginx/sites-enabled/\*;' /etc/nginx/nginx.conf; then
  { echo "daemon off;"
    sed -e "s#^\s*pid .*#pid $WORK/run/nginx.pid;#" \
      -e "s#^\s*error_log .*#error_log $WORK/log/nginx-main-error.log;#" \
      -e "s#^\(\s*\)access_log .*#\1access_log $WORK/log/nginx-access.log;#" \
      -e "s#^\s*worker_processes .*#worker_processes 1;#" \
      -e "s#^\(\s*\)include /etc/nginx/conf.d/\*\.conf;#\1\# (conf.d left out)#" \
      -e "s#^\(\s*\)include /etc/nginx/sites-enabled/\*;#\1$TEMP_PATHS\n\1include $SITE;#" \
      /etc/nginx/nginx.conf
  } >"$WORK/nginx/nginx.conf"
  FRAME="Debian's /etc/nginx/nginx.conf"
else
  printf 'daemon off;\nuser www-data;\nworker_processes 1;\npid %s/run/nginx.pid;\nerror_log %s/log/nginx-main-error.log;\nevents { worker_connections 512; }\nhttp {\n    include /etc/nginx/mime.types;\n    default_type application/octet-stream;\n    %s\n    include %s;\n}\n' \
    "$WORK" "$WORK" "$TEMP_PATHS" "$SITE" >"$WORK/nginx/nginx.conf"
  FRAME="a minimal nginx.conf (no Debian /etc/nginx/nginx.conf here)"
fi
if [ "$(id -u)" = 0 ]; then
  chown -R www-data "$WORK/nginx/temp" # Debian's /var/lib/nginx; nginx makes the cache folder itself, as on the server
else
  sed -i 's#^\s*user .*##' "$WORK/nginx/nginx.conf" # only root can change users
fi
if out=$("$NGINX" -t -q -c "$WORK/nginx/nginx.conf" -e "$WORK/log/nginx-main-error.log" 2>&1); then
  pass "nginx -t accepts the site inside $FRAME ($("$NGINX" -v 2>&1 | sed 's/.*version: //'))"
else
  echo "$out"
  cannot "nginx refused the configuration (above)"
fi
"$NGINX" -c "$WORK/nginx/nginx.conf" -e "$WORK/log/nginx-main-error.log" &
NGINX_PID=$!
CURL=(curl -fsS -o /dev/null --cacert "$WORK/tls/ca.crt" --resolve "$NAME:$HTTPS_PORT:127.0.0.1")
for _ in $(seq 1 50); do "${CURL[@]}" "https://$NAME:$HTTPS_PORT/healthz" 2>/dev/null && break; sleep 0.1; done

# --- The admin account, as the recipe makes it ---------------------------------------------------------------------
say "npm run create-admin -- $ADMIN_EMAIL"
wait "$ADMIN_PID" || { cat "$WORK/log/create-admin.log"; cannot "create-admin failed"; }
ADMIN_PASSWORD=$(sed -n 's/.*One-time password: *//p' "$WORK/log/create-admin.log" | head -1)
[ -n "$ADMIN_PASSWORD" ] || { cat "$WORK/log/create-admin.log"; cannot "create-admin printed no password"; }
echo "      one-time password received"

# --- The checks from outside ---------------------------------------------------------------------------------------
say "Checks"
set +e
DC_NAME=$NAME DC_HTTPS_PORT=$HTTPS_PORT DC_HTTP_PORT=$HTTP_PORT DC_APP_A=$APP_A DC_APP_B=$APP_B DC_CA="$WORK/tls/ca.crt" \
  DC_WORK=$WORK DC_START_APP=$START_APP DC_ENV_FILE=$ENV_FILE DC_ENV_EXAMPLE="$ROOT/$TEMPLATE_ENV" \
  DC_ADMIN_EMAIL=$ADMIN_EMAIL DC_ADMIN_PASSWORD=$ADMIN_PASSWORD DC_SKIP_RESTART=${DEPLOY_CHECK_SKIP_RESTART:-} \
  node_modules/.bin/tsx scripts/deploy-check.ts
checks=$?
set -e
[ "$checks" = 0 ] || FAILED=$((FAILED + 1))

say "Done"
if [ "$FAILED" = 0 ]; then
  echo "check:deploy: every check passed ($(elapsed))"
else
  echo "check:deploy: FAILED ($(elapsed)); logs: $WORK/log (kept with DEPLOY_CHECK_KEEP=1)"
  exit 1
fi
