#!/usr/bin/env bash
# `eval run --crosswalk-dir DIR --level L` and `runs levels` end to end (issue #21) on the sample database: the
# built-in translator sees the database under a crosswalk's names at each level, its SQL is translated back and
# scored; the level is stored with the run (runs list, the JSON); runs levels sets the runs side by side with the
# tau statistics; mistakes get clear errors.
#   eval_levels.sh PLAINSQL SAMPLE_DB FIXTURES
set -euo pipefail
bin=$1 db=$2 fixtures=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cp "$db" "$tmp/plant.db"
cd "$tmp"
mkdir cw empty
cp "$fixtures/plant_natural.csv" cw/plant.csv
q=$fixtures/plant_questions.jsonl
run() { "$bin" eval run --benchmark custom --questions "$q" --db-dir . --runs runs.db --system builtin "$@"; }

run --name native --json >native.json || fail "native run exited $?"
run --name n1 --crosswalk-dir cw --level N1 --json >n1.json || fail "N1 run exited $?"
run --name n3 --crosswalk-dir cw --level N3 >n3.txt || fail "N3 run exited $?"
grep -q "^names: N3 of the crosswalks in cw" n3.txt || fail "no names line: $(cat n3.txt)"
python3 - native.json n1.json <<'PY' || fail "N1 run: $(cat n1.json)"
import json, sys
native, n1 = (json.load(open(p)) for p in sys.argv[1:3])
assert n1["level"] == "N1", n1.keys()
assert n1["summary"]["count"] == 3 and n1["summary"]["executed"] == 3, n1["summary"]
# Every prediction is in the database's own names: it ran (scored by execution), none failed to resolve.
for q in n1["questions"]:
    assert "no such" not in (q.get("error") or ""), q
PY
"$bin" runs --runs runs.db list >list.txt
grep -q "n1 .*builtin \[names N1\]" list.txt || fail "N1 run not labelled: $(cat list.txt)"
grep -q "n3 .*builtin \[names N3\]" list.txt || fail "N3 run not labelled: $(cat list.txt)"

# Through natural views (--via views): the system reads the views of a temporary companion database (the native
# keys carried over), its SQL runs on them and is translated back; for the built-in translator, whose reading does not
# depend on how the names are shown, the predictions are those of the middleware, and the companion is gone after.
before=$(ls "${TMPDIR:-/tmp}" | grep -c '^plainsql-views-' || true)
run --name n3views --crosswalk-dir cw --level N3 --via views --json >n3views.json || fail "views run exited $?"
after=$(ls "${TMPDIR:-/tmp}" | grep -c '^plainsql-views-' || true)
[ "$before" = "$after" ] || fail "the companion databases were left behind ($before before, $after after)"
run --name n3json --crosswalk-dir cw --level N3 --json >n3.json || fail "N3 --json run exited $?"
python3 - n3.json n3views.json <<'PY' || fail "views run: $(cat n3views.json)"
import json, sys
mid, views = (json.load(open(p)) for p in sys.argv[1:3])
assert views["level"] == "N3" and views["via"] == "views", (views["level"], views.get("via"))
assert mid["via"] == "middleware", mid.get("via")
assert [q["predicted_sql"] for q in views["questions"]] == [q["predicted_sql"] for q in mid["questions"]], \
    ([q["predicted_sql"] for q in views["questions"]], [q["predicted_sql"] for q in mid["questions"]])
assert any(" JOIN " in q["predicted_sql"] for q in views["questions"]), "no join: the views lost their keys"
assert views["summary"]["ex_strict"] == mid["summary"]["ex_strict"], (views["summary"], mid["summary"])
PY
"$bin" runs --runs runs.db list >list.txt
grep -q "n3views .*builtin \[names N3 via views\]" list.txt || fail "views run not labelled: $(cat list.txt)"

"$bin" runs --runs runs.db levels native n1 n3 >levels.txt || fail "runs levels exited $?"
grep -q "^native .* native " levels.txt || fail "no native row: $(cat levels.txt)"
grep -q "^n3 .* N3 " levels.txt || fail "no N3 row: $(cat levels.txt)"
grep -q "^Least " levels.txt || fail "no tau rows: $(cat levels.txt)"
"$bin" runs --runs runs.db levels native n1 n3 n3views --html levels.html >/dev/null || fail "runs levels --html exited $?"
for part in "<svg" "EX strict by naming level" "Query and identifier recall by naming level" "N3 via views" \
  "Kendall's τ"; do
  grep -q "$part" levels.html || fail "the HTML report has no '$part'"
done
"$bin" runs --runs runs.db levels native n1 n3 --json >levels.json
python3 - levels.json <<'PY' || fail "runs levels --json: $(cat levels.json)"
import json, sys
j = json.load(open(sys.argv[1]))
assert [r["level"] for r in j["runs"]] == ["native", "N1", "N3"], j["runs"]
assert j["pooled"]["questions"] == 9, j["pooled"]
assert set(j["pooled"]["shares"]) == {"Regular", "Low", "Least"}
assert set(j["pooled"]["shares"]["Least"]) == {"ex_strict", "query_recall", "query_precision", "query_f1"}
PY
"$bin" runs --runs runs.db stats n3 | python3 -c 'import json,sys; j=json.load(sys.stdin); assert "shares" in j["naturalness"], j' ||
  fail "runs stats has no shares"

# eval score: predictions written at N2 (the gold queries, translated) are translated back and all score right.
python3 -c 'import json,sys; [print(json.loads(l)["sql"]) for l in open(sys.argv[1])]' "$q" >gold.sql
while IFS= read -r sql; do
  "$bin" translate plant.db --crosswalk cw/plant.csv --from native --to N2 "$sql"
done <gold.sql >n2.sql
grep -q "mntnnc_ordr" n2.sql || fail "the predictions were not written at N2: $(cat n2.sql)"
"$bin" eval score --benchmark custom --questions "$q" --db-dir . --predictions n2.sql --crosswalk-dir cw \
  --level N2 --json >score.json 2>score.err || fail "eval score --crosswalk-dir exited $?: $(cat score.err)"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; assert s["ex_strict"] == 1.0, s' score.json ||
  fail "N2 predictions not scored right: $(cat score.json)"
grep -q "names: N2 .* 3 predictions translated, 0 not" score.err || fail "no names note: $(cat score.err)"
"$bin" eval score --benchmark custom --questions "$q" --db-dir . --predictions n2.sql --json >plain.json 2>/dev/null
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; assert s["ex_strict"] < 1.0, s' plain.json ||
  fail "N2 predictions scored right without translation"

set +e
run --crosswalk-dir empty --level N2 >/dev/null 2>err.txt; code=$?
[ "$code" != 0 ] && grep -q "no crosswalk (<db_id>.csv) for 1 database(s): plant" err.txt ||
  fail "missing crosswalk: exit $code, $(cat err.txt)"
run --level N2 >/dev/null 2>err.txt; code=$?
[ "$code" != 0 ] && grep -q "needs --crosswalk-dir" err.txt || fail "level alone: exit $code, $(cat err.txt)"
run --crosswalk-dir cw --level N2 --via tunnel >/dev/null 2>err.txt; code=$?
[ "$code" != 0 ] && grep -q "unknown --via 'tunnel'" err.txt || fail "bad via: exit $code, $(cat err.txt)"
run --via views >/dev/null 2>err.txt; code=$?
[ "$code" != 0 ] && grep -q "needs --crosswalk-dir" err.txt || fail "via alone: exit $code, $(cat err.txt)"
run --crosswalk-dir cw --level native --via views >/dev/null 2>err.txt; code=$?
[ "$code" != 0 ] && grep -q "other names than the native" err.txt || fail "native via views: exit $code, $(cat err.txt)"
run --crosswalk-dir cw --level N7 >/dev/null 2>err.txt; code=$?
[ "$code" != 0 ] && grep -q "level" err.txt || fail "bad level: exit $code, $(cat err.txt)"
"$bin" eval run --benchmark custom --questions "$q" --db-dir . --runs runs.db \
  --system "predictions:$fixtures/plant_predictions.sql" --crosswalk-dir cw >/dev/null 2>err.txt; code=$?
[ "$code" != 0 ] && grep -q "not to a predictions" err.txt || fail "predictions: exit $code, $(cat err.txt)"
set -e
echo "eval levels ok"
