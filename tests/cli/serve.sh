#!/usr/bin/env bash
# `plainsql serve` from the command line (issue #23): an address other than loopback needs a token; a short token is
# refused; with a token every API request needs it (the page does not); two databases by name; the runs of a runs
# database with their scores and HTML report; the log holds neither the token nor a question; SIGTERM stops it cleanly.
#   serve.sh PLAINSQL SAMPLE_DB FIXTURES
set -euo pipefail
bin=$1 sample=$2 fixtures=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
pid=""
trap '{ [ -n "$pid" ] && kill "$pid" 2>/dev/null; } || true; rm -rf "$work"' EXIT
cd "$work"
mkdir dbs
cp "$sample" dbs/plant.db
cp "$sample" copy.db
fail() { echo "FAIL: $*" >&2; [ -f log ] && tail -20 log >&2; exit 1; }

set +e
"$bin" serve dbs/plant.db --listen 0.0.0.0:0 2> err.txt
code=$?
set -e
[ "$code" -eq 2 ] || fail "a public address without a token: exit $code, want 2"
grep -q -- "--token-file" err.txt || fail "no hint of --token-file: $(cat err.txt)"
echo short > short.token
set +e
"$bin" serve dbs/plant.db --token-file short.token 2> err.txt
code=$?
set -e
[ "$code" -eq 2 ] || fail "a short token: exit $code"
grep -q "at least 16" err.txt || fail "no reason for refusing the short token"

# A run to serve: the sample questions answered by their gold SQL.
python3 -c "import json,sys; [print(json.loads(l)['sql']) for l in open(sys.argv[1]) if l.strip()]" \
  "$fixtures/plant_questions.jsonl" > predictions.sql
"$bin" eval run --benchmark custom --questions "$fixtures/plant_questions.jsonl" --db-dir dbs \
  --system predictions:predictions.sql --runs runs.db --name gold > /dev/null 2>&1

token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
echo "$token" > token
source "$here/../server/start_serve.sh"
start_serve log "$bin" serve --conn plant=dbs/plant.db --conn copy=copy.db --listen 127.0.0.1:0 --token-file token \
  --runs runs.db
pid=$SERVE_PID port=$SERVE_PORT
base="http://127.0.0.1:$port"
auth=(-H "Authorization: Bearer $token")
code=$(curl -s -o /dev/null -w '%{http_code}' "$base/api/databases")
[ "$code" = 401 ] || fail "no token: $code, want 401"
code=$(curl -s -o /dev/null -w '%{http_code}' "$base/")
[ "$code" = 200 ] || fail "the page without a token: $code, want 200"
dbs=$(curl -s "${auth[@]}" "$base/api/databases")
[[ "$dbs" == *'"name":"plant"'* && "$dbs" == *'"name":"copy"'* ]] || fail "databases: $dbs"
answer=$(curl -s "${auth[@]}" -X POST "$base/api/ask" -d '{"question": "How many plants are there?", "conn": "copy"}')
[[ "$answer" == *'"conn":"copy"'* && "$answer" == *'"rows":[[6]]'* ]] || fail "ask on copy: $answer"
runs=$(curl -s "${auth[@]}" "$base/api/runs")
[[ "$runs" == *'"name":"gold"'* ]] || fail "runs: $runs"
id=$(sed -n 's/.*"id":"\(run-[^"]*\)".*/\1/p' <<< "$runs")
[ -n "$id" ] || fail "no run id in $runs"
run=$(curl -s "${auth[@]}" "$base/api/runs/$id")
[[ "$run" == *'"scores":'* ]] || fail "run: ${run:0:300}"
curl -s "${auth[@]}" -o report.html -w '%{http_code} %{content_type}\n' "$base/api/runs/gold/report" > report.status
grep -q "^200 text/html" report.status || fail "report: $(cat report.status)"
grep -qi "<html" report.html || fail "the report is not HTML"
code=$(curl -s -o /dev/null -w '%{http_code}' "${auth[@]}" "$base/api/runs/no-such-run")
[ "$code" = 404 ] || fail "an unknown run: $code"

kill -TERM "$pid"
stop=0
wait "$pid" || stop=$?
pid=""
[ "$stop" -eq 0 ] || fail "exit $stop after SIGTERM"
grep -q "plainsql serve: stopped" log || fail "no clean stop in the log"
grep -q "POST /api/ask 200" log || fail "the request log lacks the ask"
if grep -q "$token" log; then fail "the token is in the log"; fi
if grep -q "How many plants" log; then fail "a question is in the log"; fi
echo "serve ok"
