#!/usr/bin/env bash
# The load benchmark of `plainsql serve` (issue #23): starts the server on the sample database, warms it up, then runs
# CLIENTS keep-alive clients asking the sample database's questions with the built-in translator for SECONDS
# (tests/server/serve_load), sampling the server's resident memory every second. With --hung-model, the server's model
# is a scripted endpoint that never answers within the run and MODEL_CLIENTS (4) more clients ask it meanwhile.
# Anything after the options goes to plainsql serve (e.g. --cache 0).
#   bench/serve_load.sh BUILD_DIR CLIENTS SECONDS [--hung-model] [-- SERVE_OPTIONS...]
# Prints the load client's JSON, then the server's resident memory every 5 s of the measured run.
set -euo pipefail
build=$1 clients=$2 seconds=$3
shift 3
hung=false
if [ "${1:-}" = "--hung-model" ]; then hung=true; shift; fi
[ "${1:-}" = "--" ] && shift
here=$(cd "$(dirname "$0")/.." && pwd)
questions="$here/tests/server/data/sample_questions.txt"
# The work directory is in the build tree. (Two CI runs saw the server's log missing; it was not lost, it was read
# before the background job had opened it: tests/server/start_serve.sh now makes it first.)
work=$(mktemp -d "$build/serve_load.XXXXXX")
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
extra=()
model_clients=0
if $hung; then
  echo '{"content": "SELECT 1", "delay_ms": 600000}' > "$work/replies.jsonl"
  "$build/tests/fake_llm_server" "$work/replies.jsonl" "$work/llm_url" &
  pids+=($!)
  for _ in $(seq 1 100); do [ -s "$work/llm_url" ] && break; sleep 0.1; done
  extra=(--llm "$(cat "$work/llm_url")" --model hung --llm-slots 4)
  model_clients=4
fi
source "$here/tests/server/start_serve.sh"
start_serve "$work/log" "$build/plainsql" serve "$build/examples/plant.db" --listen 127.0.0.1:0 --quiet "${extra[@]}" "$@"
server=$SERVE_PID port=$SERVE_PORT
pids+=("$server")
# Warm-up: every worker made and every question translated once. Its errors are shown, with the server's log.
if ! "$build/tests/serve_load" 127.0.0.1 "$port" "$questions" "$clients" 2 > "$work/warmup.json"; then
  cat "$work/warmup.json" >&2
  tail -n 20 "$work/log" >&2
  echo "FAIL: the warm-up had errors" >&2
  exit 1
fi
rss() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }
: > "$work/rss"
( while kill -0 "$server" 2>/dev/null; do rss >> "$work/rss"; sleep 1; done ) &
sampler=$!
pids+=("$sampler")
rc=0
"$build/tests/serve_load" 127.0.0.1 "$port" "$questions" "$clients" "$seconds" "$model_clients" || rc=$?
kill "$sampler" 2>/dev/null || true
awk 'NR % 5 == 1 {s = s (s == "" ? "" : ", ") $1} END {printf "{\"rss_kb_every_5s\": [%s]}\n", s}' "$work/rss"
exit $rc
