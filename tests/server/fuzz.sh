#!/usr/bin/env bash
# Fuzzes a running `plainsql serve` on the sample database for SECONDS (tests/server/serve_fuzz), then checks that it
# still answers, stops cleanly on SIGTERM, and left no error 500 behind. The ctest runs 30 s; docs/BENCHMARKS.md has a
# 10-minute run.   fuzz.sh PLAINSQL SERVE_FUZZ SAMPLE_DB SECONDS [SEED]
set -euo pipefail
plainsql=$1 fuzz=$2 db=$3 seconds=$4 seed=${5:-1}
work=$(mktemp -d)
SERVE_PID=""
trap '{ [ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2>/dev/null; } || true; rm -rf "$work"' EXIT
source "$(dirname "$0")/start_serve.sh"
# Short query timeouts so that the fuzzer's endless queries end soon.
start_serve "$work/log" "$plainsql" serve "$db" --listen 127.0.0.1:0 --timeout 500 --quiet
pid=$SERVE_PID port=$SERVE_PORT
rss_before=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
rc=0
"$fuzz" 127.0.0.1 "$port" "$seconds" 4 "$seed" || rc=$?
kill -0 "$pid" 2>/dev/null || { cat "$work/log" >&2; echo "FAIL: the server died" >&2; exit 1; }
rss_after=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
echo "server RSS: $rss_before kB before, $rss_after kB after"
kill -TERM "$pid"
stop=0
wait "$pid" || stop=$?
[ "$stop" -eq 0 ] || { tail -20 "$work/log" >&2; echo "FAIL: exit $stop after SIGTERM" >&2; exit 1; }
[ "$rc" -eq 0 ] || { echo "FAIL: the fuzzer found problems" >&2; exit 1; }
echo "fuzz ok"
