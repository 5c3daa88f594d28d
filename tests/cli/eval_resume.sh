#!/usr/bin/env bash
# eval run is resumable: a run stopped by Ctrl-C (SIGINT) exits 130 with the resume command, keeps what it recorded,
# and `eval run --resume` finishes exactly the questions left, ending with exactly the metrics of an uninterrupted
# run. Uses the sample database and slow-ish queries; every third prediction is wrong.
#   eval_resume.sh PLAINSQL SAMPLE_DB
set -euo pipefail
bin=$1 sample=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$sample" "$work/plant.db"
cd "$work"
# 100 questions, each a recursive count to 100,000 (tens of milliseconds), answered by the gold itself.
q='WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) SELECT count(*) FROM n'
for i in $(seq 1 100); do
  printf '{"question": "q%s", "sql": "%s", "db_id": "plant"}\n' "$i" "$q" >> questions.jsonl
  if [ $((i % 3)) -eq 0 ]; then echo "SELECT 1" >> predictions.sql; else printf '%s\n' "$q" >> predictions.sql; fi
done
set +e
"$bin" eval run --benchmark custom --questions questions.jsonl --db-dir . --system predictions:predictions.sql \
  --runs runs.db --name slow --workers 2 > out.txt 2> err.txt &
pid=$!
# Interrupt as soon as the first question is recorded (a fixed sleep raced an idle machine, which finished first).
for _ in $(seq 200); do
  # Read whole before matching: under pipefail an early `grep -q` could fail the writer with SIGPIPE.
  listing=$("$bin" runs --runs runs.db list 2>/dev/null || true)
  [[ "$(awk '/slow/ {print $4}' <<< "$listing")" =~ ^[1-9] ]] && break
  sleep 0.05
done
kill -INT "$pid"
wait "$pid"
code=$?
set -e
cat err.txt
[ "$code" -eq 130 ] || { echo "FAIL: exit $code, want 130" >&2; exit 1; }
grep -q -- "--resume run-" err.txt || { echo "FAIL: no resume hint" >&2; exit 1; }
listed=$("$bin" runs --runs runs.db list | grep slow)
echo "$listed"
[[ "$listed" == *interrupted* ]] || { echo "FAIL: not marked interrupted" >&2; exit 1; }
done_before=$(echo "$listed" | awk '{print $4}' | cut -d/ -f1)
[ "$done_before" -gt 0 ] && [ "$done_before" -lt 100 ] || { echo "FAIL: $done_before done before resuming" >&2; exit 1; }
"$bin" eval run --runs runs.db --resume slow --workers 3 --json > resumed.json
"$bin" runs --runs runs.db list | grep slow | grep -q "done *100/100" || { echo "FAIL: not complete" >&2; exit 1; }
grep -q '"count": 100' resumed.json || { echo "FAIL: resumed run does not hold 100 questions" >&2; exit 1; }
"$bin" eval run --runs runs.db --resume slow 2>/dev/null && { echo "FAIL: resuming a complete run" >&2; exit 1; }
# The same run without an interruption: every metric and every question's outcome must be the same.
"$bin" eval run --benchmark custom --questions questions.jsonl --db-dir . --system predictions:predictions.sql \
  --runs runs.db --name whole --workers 2 > /dev/null
"$bin" runs --runs runs.db show slow --json | grep -v '"run":' > slow.json
"$bin" runs --runs runs.db show whole --json | grep -v '"run":' > whole.json
cmp slow.json whole.json || { echo "FAIL: the resumed run differs from the uninterrupted one" >&2; diff slow.json whole.json | head >&2; exit 1; }
grep -q '"ex_strict": 0.67' whole.json || { echo "FAIL: unexpected EX strict" >&2; grep ex_strict whole.json | head -2 >&2; exit 1; }
"$bin" runs --runs runs.db report slow -o report.html
grep -q "EX strict by difficulty" report.html || { echo "FAIL: report" >&2; exit 1; }
echo "resume ok ($done_before of 100 before the interrupt)"
