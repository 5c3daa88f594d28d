#!/usr/bin/env bash
# SQLSpace end to end (issue #20) on the sample database: `features --questions` (JSON lines), `space compare` of two
# sets, a built-in run whose questions carry the shipped estimator's estimate, `space estimator train` and `eval` on
# it, and `runs blindspots` with a second run.
#   sqlspace.sh PLAINSQL SAMPLE_DB
set -euo pipefail
bin=$1 sample=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$sample" "$work/plant.db"
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
# 60 questions, two kinds: counts of a table (the built-in translator answers them) and questions it cannot answer.
tables=(plant technician TB_EQUIP TB_MO EQ_TYP MO_ST_CD)
for i in $(seq 0 59); do
  t=${tables[$((i % 6))]}
  if [ $((i % 2)) -eq 0 ]; then
    printf '{"question": "How many rows does the %s table have?", "sql": "SELECT count(*) FROM %s", "db_id": "plant"}\n' "$t" "$t"
  else
    printf '{"question": "Which %s would a poet prefer on a rainy Monday in spring number %s?", "sql": "SELECT count(*) FROM %s WHERE 1 = 0", "db_id": "plant"}\n' "$t" "$i" "$t"
  fi >> q.jsonl
done
head -n 30 q.jsonl > a.jsonl
tail -n 30 q.jsonl > b.jsonl
"$bin" features --benchmark custom --questions a.jsonl --db-dir . --json > fa.jsonl 2>/dev/null
"$bin" features --benchmark custom --questions b.jsonl --db-dir . --json > fb.jsonl 2>/dev/null
[ "$(wc -l < fa.jsonl)" -eq 30 ] || fail "features: expected 30 lines"
grep -q '"sql.count"' fa.jsonl || fail "features: sql.count missing"
"$bin" space compare fa.jsonl fb.jsonl --json --html c.html > c.json
python3 -c "import json; j=json.load(open('c.json')); assert [s['name'] for s in j['sets']] == ['fa', 'fb'], j['sets']" \
  || fail "space compare: sets"
grep -q "What sets fa apart" c.html || fail "space compare: html"
"$bin" eval run --benchmark custom --questions q.jsonl --db-dir . --system builtin --runs runs.db --name b1 \
  --json > run.json 2>/dev/null
python3 - <<'PY' || fail "eval run: estimated_correctness"
import json
qs = json.load(open("run.json"))["questions"]
assert len(qs) == 60
assert all(isinstance(q["estimated_correctness"], float) and 0 < q["estimated_correctness"] < 1 for q in qs)
PY
"$bin" eval run --benchmark custom --questions q.jsonl --db-dir . --system builtin --runs runs.db --name b2 \
  --estimator none --json > run2.json 2>/dev/null
python3 -c "import json; assert all(q['estimated_correctness'] is None for q in json.load(open('run2.json'))['questions'])" \
  || fail "eval run --estimator none"
"$bin" space estimator train b1 --runs runs.db -o est.tsv --validation 0 > train.txt 2>/dev/null
grep -q '^input' est.tsv || fail "estimator train: no inputs"
"$bin" space estimator train b1 b2 --runs runs.db -o est2.tsv --validation 0 > train2.txt 2>/dev/null
grep -q "fitted on 120 examples" train2.txt || fail "estimator train on two runs"
"$bin" space estimator eval b1 --runs runs.db --model est.tsv --json > eval.json 2>/dev/null
python3 -c "import json; j=json.load(open('eval.json')); assert j['examples'] == 60 and j['roc_auc'] > 0.9, j" \
  || fail "estimator eval"
"$bin" runs --runs runs.db blindspots b1 --vs b2 --k 2 --json > bs.json 2>/dev/null
python3 -c "import json; j=json.load(open('bs.json')); assert j['k'] == 2 and len(j['assignment']) == 60, j['k']" \
  || fail "runs blindspots"
echo "sqlspace: ok"
