#!/usr/bin/env bash
# Workers sharing one run through a PostgreSQL runs database, as processes on several machines would:
#  1. process A starts a run with two workers, process B joins it (--resume by name) while A is working; both exit 0,
#     both recorded questions, no question was recorded twice, and the run's metrics equal those of the same run done
#     by a single process in a SQLite runs database;
#  2. a process killed with SIGKILL leaves claims behind; a process resuming on the same machine gives them back at
#     once (the dead worker's process is gone) and completes the run.
#   eval_workers.sh URL_FILE PLAINSQL SAMPLE_DB
set -euo pipefail
export PGOPTIONS="--client-min-messages=warning"
url_file=$1 bin=$2 sample=$3
base=$(head -1 "$url_file")
base=${base%/*}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$sample" "$work/plant.db"
cd "$work"
psql -X -q -v ON_ERROR_STOP=1 "$base/postgres" -c "DROP DATABASE IF EXISTS plainsql_runs_cli" \
  -c "CREATE DATABASE plainsql_runs_cli" > /dev/null
runs="$base/plainsql_runs_cli"
sql() { psql -X -q -t -A -v ON_ERROR_STOP=1 "$runs" -c "$1"; }

# 120 questions of a few tens of milliseconds each; every third prediction is wrong.
q='WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000) SELECT count(*) FROM n'
for i in $(seq 1 120); do
  printf '{"question": "q%s", "sql": "%s", "db_id": "plant"}\n' "$i" "$q" >> questions.jsonl
  if [ $((i % 3)) -eq 0 ]; then echo "SELECT 1" >> predictions.sql; else printf '%s\n' "$q" >> predictions.sql; fi
done
start_run() {  # start_run NAME: a new run in the background, pid in $!
  "$bin" eval run --benchmark custom --questions questions.jsonl --db-dir . --system predictions:predictions.sql \
    --runs "$runs" --name "$1" --workers 2 > "$1.out" 2> "$1.err" &
}
wait_for_progress() {  # wait_for_progress NAME: until the run has recorded a few questions
  for _ in $(seq 1 200); do
    n=$(sql "SELECT count(*) FROM run_questions q JOIN runs r ON r.id = q.run_id WHERE r.name = '$1' AND q.done = 1" \
      2> /dev/null || echo 0)
    [ "${n:-0}" -ge 3 ] && return 0
    sleep 0.05
  done
  echo "FAIL: run $1 makes no progress" >&2
  cat "$1.err" >&2
  exit 1
}

# 1. Two processes on one run.
start_run shared
a=$!
wait_for_progress shared
"$bin" eval run --runs "$runs" --resume shared --workers 2 --json > joined.json 2> joined.err
wait "$a" || { echo "FAIL: the first process failed" >&2; cat shared.err >&2; exit 1; }
grep -q '"count": 120' joined.json || { echo "FAIL: the joining process did not end with the whole run" >&2; exit 1; }
workers=$(sql "SELECT count(DISTINCT recorded_by) FROM run_questions q JOIN runs r ON r.id = q.run_id
               WHERE r.name = 'shared'")
[ "$workers" -eq 2 ] || { echo "FAIL: $workers processes recorded questions, want 2" >&2; exit 1; }
"$bin" runs --runs "$runs" list | grep shared | grep -q "done *120/120" || { echo "FAIL: not complete" >&2; exit 1; }
"$bin" eval run --benchmark custom --questions questions.jsonl --db-dir . --system predictions:predictions.sql \
  --runs single.db --name single > /dev/null
"$bin" runs --runs "$runs" show shared --json | grep -v '"run":' > shared.json
"$bin" runs --runs single.db show single --json | grep -v '"run":' > single.json
cmp shared.json single.json || { echo "FAIL: the shared run differs" >&2; diff shared.json single.json | head >&2; exit 1; }
grep -q "\"ex_strict\": 0.666" shared.json || { echo "FAIL: unexpected EX strict" >&2; exit 1; }

# 2. A worker killed without a chance to give its claims back.
start_run killed
k=$!
wait_for_progress killed
kill -KILL "$k"
wait "$k" 2> /dev/null || true
claimed=$(sql "SELECT count(*) FROM run_questions q JOIN runs r ON r.id = q.run_id
               WHERE r.name = 'killed' AND q.done = 0 AND q.claimed_by IS NOT NULL")
echo "claims left by the killed process: $claimed"
timeout 60 "$bin" eval run --runs "$runs" --resume killed > resumed.out 2> resumed.err \
  || { echo "FAIL: resuming after SIGKILL" >&2; cat resumed.err >&2; exit 1; }
"$bin" runs --runs "$runs" list | grep killed | grep -q "done *120/120" || { echo "FAIL: not complete" >&2; exit 1; }
"$bin" runs --runs "$runs" show killed --json | grep -v '"run":' > killed.json
cmp killed.json single.json || { echo "FAIL: the resumed run differs" >&2; exit 1; }
echo "workers ok"
