#!/usr/bin/env bash
# The L-size stand-ins of bench/l_standin.py (issue #18), on schemas made here: six asked databases (two of them with
# a table name another one has) and three lending ones. Checked: every question's database is a written schema and its
# source kept; no foreign key is left; no schema holds two tables of one name; each asked database's most read table
# is widened within the bounds, its own columns kept in their order, and its other tables are unchanged; the
# lenders' key columns are never borrowed, nor names that mean what a column of the widened table means (WordNet); a
# table a gold query reads with a star is not widened; a width the lenders cannot fill is refused.
#   l_standin.sh SOURCE_DIR
set -euo pipefail
src=$1
export PYTHONDONTWRITEBYTECODE=1  # no __pycache__ left in the source tree
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import json, sys
out = sys.argv[1]
tables, questions, train = [], [], []
def schema(db, spec, fks=()):
    d = {"db_id": db, "table_names_original": [], "table_names": [], "column_names_original": [[-1, "*"]],
         "column_names": [[-1, "*"]], "column_types": ["text"], "primary_keys": [], "foreign_keys": list(fks)}
    for t, cols in spec:
        ti = len(d["table_names_original"])
        d["table_names_original"].append(t)
        d["table_names"].append(t.lower())
        for c in cols:
            if c == "id":
                d["primary_keys"].append(len(d["column_names_original"]))
            d["column_names_original"].append([ti, c])
            d["column_names"].append([ti, c.lower()])
            d["column_types"].append("number" if c == "id" else "text")
    return d
for i in range(6):
    first = "shared_name" if i in (1, 2) else f"person_{i}"  # databases 1 and 2 clash
    tables.append(schema(f"asked_{i}", [(first, ["id", "name", "age"]), (f"visit_{i}", ["id", "person_id", "day"])],
                         fks=[[5, 1]]))
    questions.append({"db_id": f"asked_{i}", "question": "Names?", "query": f"SELECT name FROM {first}"})
    questions.append({"db_id": f"asked_{i}", "question": "Ages?", "query": f"SELECT age FROM {first} WHERE age > 3"})
# A star over person_0 would make every borrowed column gold: that table is not widened.
questions.append({"db_id": "asked_0", "question": "All about the old?", "query": "SELECT * FROM person_0 WHERE age > 9"})
for i in range(3):
    # lend_0 also holds two names meaning what the asked tables' "age" means (WordNet): never borrowed.
    again = ["old_age", "Years"] if i == 0 else []
    tables.append(schema(f"lend_{i}", [(f"stock_{i}", ["id"] + [f"item_{i}_{k}" for k in range(20)] + again)]))
    train.append({"db_id": f"lend_{i}", "question": "x", "query": f"SELECT id FROM stock_{i}"})
json.dump(tables, open(f"{out}/tables.json", "w"))
json.dump(questions, open(f"{out}/questions.json", "w"))
json.dump(train + questions, open(f"{out}/train.json", "w"))
PY
fail() { echo "FAIL: $*" >&2; exit 1; }
python3 "$src/bench/l_standin.py" --questions "$work/questions.json" --tables "$work/tables.json" \
  --train "$work/train.json" --columns 40 --min-width 10 --max-width 25 --out "$work/out" || fail "l_standin.py failed"
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
source = {t["db_id"]: t for t in json.load(open(f"{work}/tables.json"))}
out = {t["db_id"]: t for t in json.load(open(f"{work}/out/tables.json"))}
qs = json.load(open(f"{work}/out/questions.json"))
def fail(m): sys.exit("FAIL: " + m)
if len(qs) != 13: fail(f"{len(qs)} questions, 13 asked")
for q in qs:
    if q["db_id"] not in out: fail(f"question on {q['db_id']}, which was not written")
    if not q["source_db"].startswith("asked_"): fail(f"source_db {q['source_db']}")
if len(out) < 2: fail("every database in one schema, though --columns 40 and two clash")
groups = {}
for q in qs: groups.setdefault(q["db_id"], set()).add(q["source_db"])
for db, s in out.items():
    if s["foreign_keys"]: fail(f"{db} keeps foreign keys")
    names = [t.lower() for t in s["table_names_original"]]
    if len(names) != len(set(names)): fail(f"{db} holds two tables of one name: {names}")
    if "asked_1" in groups[db] and "asked_2" in groups[db]: fail("the clashing databases share a schema")
    cols = {}
    for ti, c in s["column_names_original"][1:]: cols.setdefault(s["table_names_original"][ti], []).append(c)
    for t, cs in cols.items():
        key = s["column_names_original"].index([s["table_names_original"].index(t), "id"])
        if key not in s["primary_keys"]: fail(f"{db}.{t}: its primary key was lost")
        if cs.count("id") != 1: fail(f"{db}.{t}: a lender's key column was borrowed")
        borrowed = [c for c in cs if c.startswith("item_")]
        if t == "person_0":
            if cs != ["id", "name", "age"]: fail(f"{db}.{t}, read by a star, changed: {len(cs)} columns")
        elif t.startswith(("person_", "shared_name")):
            if not 10 <= len(cs) <= 25: fail(f"{db}.{t} has {len(cs)} columns, not 10-25")
            own = [c for c in cs if not c.startswith("item_")]
            if own != ["id", "name", "age"]: fail(f"{db}.{t}: own columns {own}, not in their order")
        elif t.startswith("visit_"):
            if cs != ["id", "person_id", "day"]: fail(f"{db}.{t} changed: {cs}")
        if t.startswith("visit_") and borrowed: fail(f"{db}.{t} widened though not the most read")
PY
# Every one of the 60 other names is needed to widen to 63 columns; the two synonyms of "age" still are not taken.
python3 "$src/bench/l_standin.py" --questions "$work/questions.json" --tables "$work/tables.json" \
  --train "$work/train.json" --min-width 63 --max-width 63 --out "$work/full" >/dev/null || fail "width 63 refused"
python3 - "$work/full/tables.json" <<'PY'
import json, sys
for s in json.load(open(sys.argv[1])):
    names = {c for _, c in s["column_names_original"]}
    if names & {"old_age", "Years"}: sys.exit(f"FAIL: {s['db_id']} borrowed a synonym of its own age column")
PY
# The lenders' 60 non-key names that say something new cannot fill 64 columns.
if python3 "$src/bench/l_standin.py" --questions "$work/questions.json" --tables "$work/tables.json" \
  --train "$work/train.json" --min-width 64 --max-width 64 --out "$work/bad" 2>"$work/err"; then
  fail "an unfillable width was accepted"
fi
grep -q "cannot be widened" "$work/err" || fail "no reason given: $(cat "$work/err")"
echo ok
