#!/usr/bin/env bash
# Backend memory over many calls of the PostgreSQL extension in one session (issue #22's bar: 10,000 calls of
# plainsql.ask leave it flat within 10 %). Starts a throwaway cluster holding concert_singer, installs the module built
# in BUILD, and calls plainsql.ask (and generate and explain, in turn) N times in one psql session over six questions;
# the backend's resident size (VmRSS) and the server's own allocations (pg_backend_memory_contexts) are read after
# the first 100 calls, then every N/10.
# With --reopen, every call is preceded by a comment changed on a table, so that the module reads the schema and makes
# its handle again each time (what a schema change costs, and whether closing a handle frees it).
#   bench/pg_extension_memory.sh BUILD [N] [--reopen]
set -euo pipefail
build=$(cd "$1" && pwd)
n=${2:-10000}
reopen=${3:-}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
chmod 755 "$work"
trap 'bash "$here/tests/pg/pg_cluster.sh" stop "$work/pg" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
bash "$build/pg_extension/install.sh" > /dev/null
bash "$here/tests/pg/pg_cluster.sh" start "$work/pg" "$here/tests/pg_extension/concert_singer.sql" > /dev/null
url=$(cat "$work/pg/url")
PGPASSWORD=$(cat "$work/pg/pwfile")
export PGPASSWORD
psql -X -q "$url" -c "CREATE EXTENSION plainsql"
mapfile -t questions < "$here/tests/pg_extension/questions.txt"
{
  step=$((n / 10))
  for ((i = 1; i <= n; i++)); do
    q=${questions[$((i % ${#questions[@]}))]}
    [ "$reopen" = --reopen ] && echo "COMMENT ON TABLE singer IS 'singers, version $i';"
    case $((i % 3)) in
      0) echo "SELECT count(*) FROM plainsql.ask('$q');" ;;
      1) echo "SELECT length(plainsql.generate('$q'));" ;;
      2) echo "SELECT length(plainsql.explain('$q')::text);" ;;
    esac
    if [ "$i" -eq 100 ] || [ $((i % step)) -eq 0 ]; then
      echo "SELECT 'calls $i rss ' || substring(pg_read_file('/proc/' || pg_backend_pid() || '/status') FROM"\
        "'VmRSS:\\s+(\\d+) kB') || ' kB, contexts ' || (SELECT sum(total_bytes) FROM pg_backend_memory_contexts) ||"\
        "' bytes';"
    fi
  done
} > "$work/calls.sql"
start=$(date +%s)
psql -X -q -A -t "$url" -f "$work/calls.sql" 2>&1 | grep -E "^calls|ERROR"
echo "$n calls in $(( $(date +%s) - start )) s"
