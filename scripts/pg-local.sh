#!/usr/bin/env bash
# A throwaway local Postgres for tests, the demo and benchmarks: `start` initialises a cluster
# under build/pg (first time only) and starts it on 127.0.0.1; `stop` stops it; `url` prints
# the DATABASE_URL. Works as root (the server runs as the postgres user) and as a normal user.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=$(realpath -m "${FITZ_PG_DIR:-$root/build/pg}")  # absolute: the permission walk below climbs to /
port_file=$dir/port
db=${FITZ_PG_DB:-fitz}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[[ -n $bin ]] || { echo "pg-local: no Postgres server installed (run scripts/install-deps.sh)" >&2; exit 2; }

as_pg() {
  if [[ $(id -u) -eq 0 ]]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The cluster keeps the port it was first started on; a new one takes the first free port
# from FITZ_PG_PORT (default 55432) upwards, so several checkouts can run side by side.
choose_port() {
  if [[ -f $port_file ]]; then port=$(cat "$port_file"); return; fi
  port=${FITZ_PG_PORT:-55432}
  while port_in_use "$port"; do port=$((port + 1)); done
  echo "$port" >"$port_file"
}

url() { port=$(cat "$port_file" 2>/dev/null || echo "${FITZ_PG_PORT:-55432}"); echo "postgres://postgres@127.0.0.1:$port/$db"; }

start() {
  mkdir -p "$dir"
  running=false
  [[ -f $dir/data/PG_VERSION ]] && as_pg "$bin/pg_ctl -D '$dir/data' status" >/dev/null 2>&1 && running=true
  if ! $running; then rm -f "$port_file"; fi
  choose_port
  if [[ $(id -u) -eq 0 ]]; then
    chown postgres "$dir"
    # The server must be able to reach its data directory through every parent.
    p=$dir; while [[ $p != / ]]; do chmod o+x "$p" 2>/dev/null || true; p=$(dirname "$p"); done
  fi
  if [[ ! -f $dir/data/PG_VERSION ]]; then
    as_pg "$bin/initdb -D '$dir/data' -U postgres --auth=trust -E UTF8 --locale=C.UTF-8" >/dev/null
  fi
  if ! as_pg "$bin/pg_ctl -D '$dir/data' status" >/dev/null 2>&1; then
    as_pg "$bin/pg_ctl -D '$dir/data' -l '$dir/log' -w -o \"-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off\" start" >/dev/null
  fi
  if ! as_pg "$bin/psql -h 127.0.0.1 -p $port -U postgres -tAc \"SELECT 1 FROM pg_database WHERE datname='$db'\"" | grep -q 1; then
    as_pg "$bin/createdb -h 127.0.0.1 -p $port -U postgres $db"
  fi
  url
}

stop() {
  [[ -d $dir/data ]] && as_pg "$bin/pg_ctl -D '$dir/data' -m fast -w stop" >/dev/null 2>&1 || true
}

case ${1:-start} in
  start) start ;;
  stop) stop ;;
  url) url ;;
  *) echo "usage: $0 start|stop|url" >&2; exit 2 ;;
esac
