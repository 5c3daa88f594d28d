#!/usr/bin/env bash
# Runs browser_test.mjs against a real `plainsql serve` on loopback (with a runs database holding one run of the
# sample questions, for the runs view and its report), then stops the server with SIGTERM and checks that it stopped
# cleanly. Usage: browser.sh PLAINSQL SAMPLE_DB SCREENSHOT_DIR FIXTURES
set -euo pipefail
plainsql=$1
db=$2
shots=$3
fixtures=$4
here=$(cd "$(dirname "$0")" && pwd)
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ] || ! command -v node >/dev/null; then
  if [ "${CI:-}" = true ]; then echo "FAIL: chromium or node is not installed" >&2; exit 1; fi
  echo "chromium or node is not installed: skipped"
  exit 77
fi
if [ ! -d "$here/node_modules/playwright-core" ]; then
  # The exact version of package-lock.json, from the npm registry.
  (cd "$here" && npm ci --no-audit --no-fund >/dev/null)
fi
work=$(mktemp -d)
SERVE_PID=""
trap '{ [ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2>/dev/null; } || true; rm -rf "$work"' EXIT
source "$here/../server/start_serve.sh"
mkdir "$work/dbs"
cp "$db" "$work/dbs/plant.db"
python3 -c "import json,sys; [print(json.loads(l)['sql']) for l in open(sys.argv[1]) if l.strip()]" \
  "$fixtures/plant_questions.jsonl" > "$work/predictions.sql"
"$plainsql" eval run --benchmark custom --questions "$fixtures/plant_questions.jsonl" --db-dir "$work/dbs" \
  --system "predictions:$work/predictions.sql" --runs "$work/runs.db" --name browser > /dev/null 2>&1
start_serve "$work/log" "$plainsql" serve "$work/dbs/plant.db" --listen 127.0.0.1:0 --runs "$work/runs.db"
pid=$SERVE_PID port=$SERVE_PORT
CHROMIUM="$chromium" timeout 180 node "$here/browser_test.mjs" "http://127.0.0.1:$port/" "$shots"
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
if [ "$rc" -ne 0 ]; then cat "$work/log" >&2; echo "FAIL: the server exited with $rc after SIGTERM" >&2; exit 1; fi
grep -q "plainsql serve: stopped" "$work/log" || { echo "FAIL: no clean stop in the log" >&2; exit 1; }
echo "browser test ok; screenshots in $shots"
