#!/bin/bash
# The upstream image's entry point as far as this project relies on it: on an empty $PGDATA, initdb
# with POSTGRES_USER / POSTGRES_PASSWORD (password authentication over TCP from anywhere), create
# POSTGRES_DB, run /docker-entrypoint-initdb.d/*.sql and *.sh; then the server as the postgres user,
# listening on every address, its socket in /var/run/postgresql (where pg_isready looks).
set -euo pipefail
if [ "${1#-}" != "$1" ]; then set -- postgres "$@"; fi
if [ "$1" != postgres ]; then exec "$@"; fi

if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "Error: the database is uninitialized and POSTGRES_PASSWORD is not set" >&2
    exit 1
  fi
  user="${POSTGRES_USER:-postgres}"
  db="${POSTGRES_DB:-$user}"
  initdb --username="$user" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") --encoding=UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA" >/dev/null
  printf 'host all all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
  printf "listen_addresses = '*'\nunix_socket_directories = '/var/run/postgresql'\n" >> "$PGDATA/postgresql.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "$db" != postgres ]; then
    psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$user" --dbname postgres -c "CREATE DATABASE \"$db\"" >/dev/null
  fi
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sql) psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$user" --dbname "$db" -f "$f" ;;
      *.sh) . "$f" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "PostgreSQL init process complete; ready for start up."
fi
exec "$@"
