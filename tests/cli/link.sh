#!/usr/bin/env bash
# `plainsql link` end to end (issue #18) on the sample database: text and JSON for one question, both methods, the
# budget, bad usage; then a questions file in the Spider layout linked in batch and scored by `plainsql eval subsets`.
#   link.sh PLAINSQL SAMPLE_DB
set -euo pipefail
bin=$1 db=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$("$bin" link "$db" "Which plant has the most technicians?") || fail "link exited $?"
grep -q '^plant' <<<"$out" && grep -q '^technician' <<<"$out" || fail "plant and technician not kept: $out"
grep -q 'tables,.*columns' <<<"$out" || fail "no size line: $out"

json=$("$bin" link "$db" "Show the equipment descriptions of plant Riverside Works" --json)
python3 - "$json" <<'PY' || fail "bad JSON: $json"
import json, sys
j = json.loads(sys.argv[1])
assert set(j) == {"tables", "columns", "scores", "ms"}, j.keys()
assert "TB_EQUIP" in j["tables"] and "TB_EQUIP.EQ_DESC" in j["columns"], j
assert all(0 <= v <= 1 for v in j["scores"].values())
PY

n=$("$bin" link "$db" "Show the equipment descriptions of plant Riverside Works" --json --budget 2 |
    python3 -c 'import json,sys; print(len(json.load(sys.stdin)["columns"]))')
[ "$n" -le 2 ] || fail "--budget 2 kept $n columns"

"$bin" link "$db" "How many plants are there?" --method draft | grep -q '^plant' || fail "draft method"
set +e
"$bin" link "$db" "x" --method nope >/dev/null 2>"$tmp/err"; code=$?
set -e
[ "$code" = 2 ] && grep -q "unknown subsetting method" "$tmp/err" || fail "unknown method: exit $code"

# Batch: a Spider-layout folder with the sample database, linked and then scored.
mkdir -p "$tmp/db/plant"
cp "$db" "$tmp/db/plant/plant.sqlite"
cat >"$tmp/q.json" <<'Q'
[{"db_id": "plant", "question": "How many plants are there?", "query": "SELECT count(*) FROM plant"},
 {"db_id": "plant", "question": "List the names of plants in each city.", "query": "SELECT plant_name, city FROM plant"},
 {"db_id": "plant", "question": "What are the first names of technicians at plant Riverside Works?",
  "query": "SELECT T2.first_name FROM plant AS T1 JOIN technician AS T2 ON T1.plant_id = T2.plant_id WHERE T1.plant_name = 'Riverside Works'"}]
Q
"$bin" link --questions "$tmp/q.json" --db-dir "$tmp/db" --json >"$tmp/s.jsonl"
[ "$(wc -l <"$tmp/s.jsonl")" = 3 ] || fail "expected 3 subset lines"
"$bin" eval subsets --questions "$tmp/q.json" --db-dir "$tmp/db" --subsets "$tmp/s.jsonl" --json >"$tmp/score.json"
python3 - "$tmp/score.json" <<'PY' || fail "eval subsets: $(cat "$tmp/score.json")"
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
assert s["scored"] == 3, s
assert s["perf_recall"] == 1.0, s
PY
echo "link ok"
