#!/usr/bin/env bash
# Starts (or stops) a throwaway PostgreSQL cluster from the machine's binaries, for integration tests.
# Usage: scripts/pg-throwaway.sh start|stop   — prints the DATABASE_URL on start.
set -euo pipefail
PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
PGPORT=${PGPORT:-54329}
# The cluster's files live in memory (/dev/shm, a tmpfs) when the machine has room there. Every test file's database
# is a copy of a template (CREATE DATABASE … TEMPLATE: ~800 files made, then deleted at its end); on ext4 under
# /tmp the kernel's inode allocator slowed down as the deleted inodes piled up (perf: a third of the run's samples in
# ext4's find_inode_bit/recently_deleted), and the PostgreSQL integration tests took 177 s instead of 118 s.
if [ -z "${PGDATA:-}" ]; then
  shm_free_kb=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
  if [ -w /dev/shm ] && [ "${shm_free_kb:-0}" -gt 4000000 ]; then PGDATA=/dev/shm/scentara-pg-$PGPORT; else PGDATA=/tmp/scentara-pg-$PGPORT; fi
fi
run() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
case "${1:-start}" in
  start)
    [ -x "$PGBIN/initdb" ] || { echo "no PostgreSQL binaries found" >&2; exit 3; }
    if ! run "$PGBIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1; then
      rm -rf "$PGDATA"; mkdir -p "$PGDATA"
      [ "$(id -u)" = 0 ] && chown postgres "$PGDATA"
      run "$PGBIN/initdb" -D "$PGDATA" -A trust -U postgres --no-sync >/dev/null
      run "$PGBIN/pg_ctl" -D "$PGDATA" -o "-p $PGPORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" -l "$PGDATA/log" -w start >/dev/null
    fi
    echo "postgres://postgres@127.0.0.1:$PGPORT/postgres"
    ;;
  stop)
    run "$PGBIN/pg_ctl" -D "$PGDATA" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$PGDATA"
    ;;
esac
