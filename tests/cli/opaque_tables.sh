#!/usr/bin/env bash
# bench/opaque_tables.py (issue #18) on a stand-in made here: two schemas, one with a join. Checked: every table is
# renamed to "O" and three capitals, unique within its schema; columns, keys and the other fields are unchanged; the
# gold queries name the new tables only (a join with aliases too); a gold query that does not parse is left out.
#   opaque_tables.sh PLAINSQL SOURCE_DIR
set -euo pipefail
plainsql=$1
src=$2
export PYTHONDONTWRITEBYTECODE=1  # no __pycache__ left in the source tree
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/in"
python3 - "$work/in" <<'PY'
import json, sys
out = sys.argv[1]
def schema(db, spec):
    d = {"db_id": db, "table_names_original": [], "table_names": [], "column_names_original": [[-1, "*"]],
         "column_names": [[-1, "*"]], "column_types": ["text"], "primary_keys": [], "foreign_keys": []}
    for t, cols in spec:
        d["table_names"].append(t.lower())
        d["table_names_original"].append(t)
        for c in cols:
            d["column_names_original"].append([len(d["table_names"]) - 1, c])
            d["column_names"].append([len(d["table_names"]) - 1, c.lower()])
            d["column_types"].append("text")
    d["primary_keys"] = [1]
    return d
tables = [schema("a", [("Student", ["StuID", "Name", "Age"]), ("Visit", ["VisitID", "StuID", "Day"])]),
          schema("b", [("Aircraft", ["Aircraft_ID", "Name"])])]
questions = [
    {"db_id": "a", "question": "Names of students over 20?", "query": "SELECT Name FROM Student WHERE Age > 20"},
    {"db_id": "a", "question": "Days of visits by Ada?",
     "query": "SELECT T2.Day FROM Student AS T1 JOIN Visit AS T2 ON T1.StuID = T2.StuID WHERE T1.Name = 'Ada'"},
    {"db_id": "b", "question": "How many aircraft?", "query": "SELECT count(*) FROM Aircraft"},
    {"db_id": "b", "question": "Broken?", "query": "SELECT FROM WHERE"},
]
json.dump(tables, open(f"{out}/tables.json", "w"))
json.dump(questions, open(f"{out}/questions.json", "w"))
PY
fail() { echo "FAIL: $*" >&2; exit 1; }
python3 "$src/bench/opaque_tables.py" --plainsql "$plainsql" --standin "$work/in" --out "$work/out" \
  > "$work/log" || fail "opaque_tables.py failed"
grep -q "3 questions kept, 1 whose gold query could not be rewritten" "$work/log" || fail "counts: $(cat "$work/log")"
python3 - "$work" <<'PY'
import json, re, sys
work = sys.argv[1]
def fail(m): sys.exit("FAIL: " + m)
before = {t["db_id"]: t for t in json.load(open(f"{work}/in/tables.json"))}
after = {t["db_id"]: t for t in json.load(open(f"{work}/out/tables.json"))}
for db, t in after.items():
    names = t["table_names_original"]
    if not all(re.fullmatch(r"O[A-Z]{3}", n) for n in names): fail(f"{db}: not opaque codes: {names}")
    if len({n.lower() for n in names}) != len(names): fail(f"{db}: two tables share a code: {names}")
    if t["table_names"] != names: fail(f"{db}: readable names left: {t['table_names']}")
    for k in ("column_names_original", "column_names", "column_types", "primary_keys", "foreign_keys"):
        if t[k] != before[db][k]: fail(f"{db}: {k} changed")
old = {n.lower() for t in before.values() for n in t["table_names_original"]}
for q in json.load(open(f"{work}/out/questions.json")):
    codes = after[q["db_id"]]["table_names_original"]
    words = {w.lower() for w in re.findall(r"[A-Za-z_]+", q["query"])}
    if words & old: fail(f"an old table name is left in {q['query']}")
    if not any(c.lower() in words for c in codes): fail(f"no new table name in {q['query']}")
join = [q for q in json.load(open(f"{work}/out/questions.json")) if "JOIN" in q["query"].upper()]
if len(join) != 1 or join[0]["query"].upper().count(" AS T") != 2: fail(f"the join was not kept: {join}")
PY
echo "opaque_tables: ok"
