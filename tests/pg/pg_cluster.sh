#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and benchmarks.
#   pg_cluster.sh start DIR [FIXTURE.sql]   initdb in DIR/data, start on 127.0.0.1 on a free port, load the fixture
#                                           into database plainsql_test, write the superuser URL to DIR/url
#   pg_cluster.sh stop DIR                  stop the server and remove DIR
# PostgreSQL refuses to run as root, so under root the server runs as the system user plainsql_pg (created here).
set -euo pipefail

cmd=${1:?usage: pg_cluster.sh start|stop DIR [FIXTURE.sql]}
dir=${2:?usage: pg_cluster.sh start|stop DIR [FIXTURE.sql]}
fixture=${3:-}

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "pg_cluster: PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql-15)" >&2
  exit 1
fi

run_user=$(id -un)
as_server() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u "$run_user" -- "$@"; else "$@"; fi
}
if [ "$(id -u)" -eq 0 ]; then
  run_user=plainsql_pg
  id -u "$run_user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$run_user"
fi

stop() {
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_server "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

case "$cmd" in
  stop)
    stop
    ;;
  start)
    stop
    mkdir -p "$dir"
    chmod 755 "$dir"
    password=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
    printf '%s\n' "$password" > "$dir/pwfile"
    chown -R "$run_user" "$dir"
    as_server "$bindir/initdb" -D "$dir/data" -U postgres --pwfile="$dir/pwfile" --auth=scram-sha-256 \
      -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    # A free port, below the kernel's ephemeral range: a port in that range can be held by any outgoing connection,
    # which the check below does not see (a fresh-clone test run failed with "Address already in use" on port 34028,
    # inside that range). Nothing listens on it when picked; should the server still fail to bind it, the next one is
    # tried.
    low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
    [ "$low" -gt 21000 ] 2>/dev/null || low=32768
    port=""
    for _ in $(seq 1 50); do
      candidate=$((20000 + RANDOM % (low - 20000)))
      (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null && continue
      [ -f "$dir/server.log" ] && : > "$dir/server.log"  # this attempt's log only
      if as_server "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-p $candidate -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off" start >/dev/null; then
        port=$candidate
        break
      fi
      grep -q 'Address already in use' "$dir/server.log" || { cat "$dir/server.log" >&2; exit 1; }
    done
    [ -n "$port" ] || { echo "pg_cluster: no free port found" >&2; cat "$dir/server.log" >&2; exit 1; }
    url="postgresql://postgres:$password@127.0.0.1:$port"
    export PGPASSWORD=$password
    psql -X -q -v ON_ERROR_STOP=1 "$url/postgres" -c "CREATE DATABASE plainsql_test" >/dev/null
    if [ -n "$fixture" ]; then
      psql -X -q -v ON_ERROR_STOP=1 "$url/plainsql_test" -f "$fixture" >/dev/null
    fi
    printf '%s/plainsql_test\n' "$url" > "$dir/url"
    printf '%s\n' "$port" > "$dir/port"
    echo "pg_cluster: PostgreSQL running on 127.0.0.1:$port (data in $dir/data)"
    ;;
  *)
    echo "usage: pg_cluster.sh start|stop DIR [FIXTURE.sql]" >&2
    exit 2
    ;;
esac
