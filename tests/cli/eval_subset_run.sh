#!/usr/bin/env bash
# `eval run --subset` and `eval subsets --html` end to end (issue #18) on the sample database: the built-in translator
# on oracle subsets, on a subsets file and on the builtin method's subsets; the subset source is stored with the run
# (runs list, runs show, the JSON) and a resumed run keeps it; a predictions file refuses subsets; eval subsets writes
# its HTML report.
#   eval_subset_run.sh PLAINSQL SAMPLE_DB FIXTURES
set -euo pipefail
bin=$1 db=$2 fixtures=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cp "$db" "$tmp/plant.db"
cd "$tmp"
q=$fixtures/plant_questions.jsonl
run() { "$bin" eval run --benchmark custom --questions "$q" --db-dir . --runs runs.db --system builtin "$@"; }

run --name full --json >full.json || fail "eval run without subsets exited $?"
run --name oracle --subset oracle --json >oracle.json || fail "eval run --subset oracle exited $?"
python3 - full.json oracle.json <<'PY' || fail "oracle run: $(cat oracle.json)"
import json, sys
full, oracle = (json.load(open(p)) for p in sys.argv[1:3])
assert oracle["subset"] == "oracle", oracle.keys()
s = oracle["summary"]
assert s["count"] == 3 and s["executed"] == 3, s
# The oracle keeps what the gold query reads: the translator does at least as well as on the whole schema.
assert s["ex_strict"] >= full["summary"]["ex_strict"], (s["ex_strict"], full["summary"]["ex_strict"])
PY
run --name file --subset "$fixtures/plant_subsets.jsonl" >file.txt || fail "eval run --subset FILE exited $?"
grep -q "^schema subsets: $fixtures/plant_subsets.jsonl" file.txt || fail "no subset line: $(cat file.txt)"
run --name method --subset builtin >/dev/null || fail "eval run --subset builtin exited $?"

"$bin" runs --runs runs.db list >list.txt
grep -q "full .*builtin *$" list.txt || fail "full run: $(cat list.txt)"
grep -q "oracle .*builtin \[subset oracle\]" list.txt || fail "oracle run not labelled: $(cat list.txt)"
grep -q "file .*builtin \[subset file:$fixtures/plant_subsets.jsonl\]" list.txt || fail "file run: $(cat list.txt)"
grep -q "method .*builtin \[subset builtin\]" list.txt || fail "method run: $(cat list.txt)"
"$bin" runs --runs runs.db show oracle > show.txt  # a file: head in a pipe would stop the writer (pipefail)
head -1 show.txt | grep -q "system builtin \[subset oracle\]" || fail "runs show"

# A subsets file needs one line per question; a predictions file takes no subsets; a resume keeps its own.
set +e
head -1 "$fixtures/plant_subsets.jsonl" >short.jsonl
run --subset short.jsonl >/dev/null 2>err.txt; code=$?
[ "$code" != 0 ] && grep -q "one subset per question" err.txt || fail "short file: exit $code, $(cat err.txt)"
"$bin" eval run --benchmark custom --questions "$q" --db-dir . --runs runs.db \
  --system "predictions:$fixtures/plant_predictions.sql" --subset oracle >/dev/null 2>err.txt; code=$?
[ "$code" != 0 ] && grep -q "not to a predictions file" err.txt || fail "predictions: exit $code, $(cat err.txt)"
"$bin" eval run --runs runs.db --resume oracle --subset builtin >/dev/null 2>err.txt; code=$?
[ "$code" != 0 ] && grep -q "resumed run keeps its own" err.txt || fail "resume: exit $code, $(cat err.txt)"
set -e

# eval subsets --html: the Table 3 layout and the misses.
"$bin" eval subsets --benchmark custom --questions "$q" --db-dir . --subsets "$fixtures/plant_subsets.jsonl" \
  --html report.html >/dev/null || fail "eval subsets --html exited $?"
grep -q "<h2>By schema size</h2>" report.html || fail "no size table in the report"
grep -q "PRe (perfect recall)" report.html || fail "no PRe row"
grep -q "plant.plant_id" report.html || fail "the missed gold column is not listed"
echo "eval subset run ok"
