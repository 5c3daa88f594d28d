#!/usr/bin/env bash
# bench/naturalness_mix.py (issue #18) on a stand-in made here: two schemas, one with a join. Checked: with every name
# drawn Regular only the case style may change; with every name drawn Least the tables are opaque codes and most
# columns are read Least by the classifier, one name in two spellings (`name`, `Name`) is renamed alike, no table holds
# two columns of one name, and the gold queries name the new
# names only (a join with aliases too); a gold query that does not parse is left out and counted; a run is repeatable
# and another seed draws otherwise; a malformed mix is refused.
#   naturalness_mix.sh PLAINSQL SOURCE_DIR
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
            d["column_names"].append([len(d["table_names"]) - 1, c.lower().replace("_", " ")])
            d["column_types"].append("text")
    d["primary_keys"] = [1]
    return d
tables = [schema("a", [("Student", ["student_id", "first_name", "last_name", "home_address", "date_of_birth",
                                    "contact_person", "mailing_address", "name"]),
                       ("Visit", ["visit_id", "student_id", "visit_date", "purpose_description", "Name"])]),
          schema("b", [("Aircraft", ["aircraft_id", "name", "maximum_speed", "manufacturer_country"])])]
questions = [
    {"db_id": "a", "question": "First names of students born after 2000?",
     "query": "SELECT first_name FROM Student WHERE date_of_birth > '2000'"},
    {"db_id": "a", "question": "Purposes of visits by Ada?",
     "query": "SELECT T2.purpose_description FROM Student AS T1 JOIN Visit AS T2 ON T1.student_id = T2.student_id "
              "WHERE T1.first_name = 'Ada'"},
    {"db_id": "b", "question": "Fastest aircraft?", "query": "SELECT name FROM Aircraft ORDER BY maximum_speed DESC LIMIT 1"},
    {"db_id": "b", "question": "Broken?", "query": "SELECT FROM WHERE"},
]
json.dump(tables, open(f"{out}/tables.json", "w"))
json.dump(questions, open(f"{out}/questions.json", "w"))
PY
fail() { echo "FAIL: $*" >&2; exit 1; }
run() {  # OUT [options]
  local out=$1
  shift
  python3 "$src/bench/naturalness_mix.py" --plainsql "$plainsql" --standin "$work/in" --out "$work/$out" "$@" \
    > "$work/$out.log" || fail "naturalness_mix.py $* failed: $(cat "$work/$out.log")"
  grep -q "3 questions kept, 1 whose gold query could not be rewritten" "$work/$out.log" || fail "counts: $(cat "$work/$out.log")"
}
run regular --mix 1,0,0 --table-mix 1,0,0 --opaque-share 0
run least --mix 0,0,1 --table-mix 0,0,1 --opaque-share 1
run least_again --mix 0,0,1 --table-mix 0,0,1 --opaque-share 1
run other_seed --mix 0,0,1 --table-mix 0,0,1 --opaque-share 1 --seed 2
for seed in 1 2 3 4 5 6; do run "mixed$seed" --seed "$seed"; done
cmp -s "$work/least/tables.json" "$work/least_again/tables.json" || fail "two runs with one seed differ"
cmp -s "$work/least/tables.json" "$work/other_seed/tables.json" && fail "another seed gave the same names"
if python3 "$src/bench/naturalness_mix.py" --plainsql "$plainsql" --standin "$work/in" --out "$work/bad" \
    --mix 0.5,0.5 2> "$work/bad.err"; then fail "a mix of two shares was taken"; fi
grep -q "three shares" "$work/bad.err" || fail "no clear error for a bad mix: $(cat "$work/bad.err")"
python3 - "$work" "$plainsql" <<'PY'
import json, re, subprocess, sys
work, plainsql = sys.argv[1], sys.argv[2]
def fail(m): sys.exit("FAIL: " + m)
letters = lambda n: re.sub(r"[^a-z0-9]", "", n.lower())
before = {t["db_id"]: t for t in json.load(open(f"{work}/in/tables.json"))}
regular = {t["db_id"]: t for t in json.load(open(f"{work}/regular/tables.json"))}
for db, t in regular.items():
    for (_, a), (_, b) in zip(before[db]["column_names_original"], t["column_names_original"]):
        if letters(a) != letters(b): fail(f"a Regular draw changed more than the case style: {a} -> {b}")
least = {t["db_id"]: t for t in json.load(open(f"{work}/least/tables.json"))}
renamed = {}
for db, t in least.items():
    if not all(re.fullmatch(r"O[A-Z]{3}", n) for n in t["table_names_original"]): fail(f"{db}: not opaque: {t}")
    for k in ("column_types", "primary_keys", "foreign_keys"):
        if t[k] != before[db][k]: fail(f"{db}: {k} changed")
    if t["column_names"] != t["column_names_original"]: fail(f"{db}: the readable labels were kept")
    per_table = {}
    for (ti, old), (_, new) in zip(before[db]["column_names_original"], t["column_names_original"]):
        if ti < 0: continue
        if new.lower() in per_table.setdefault(ti, set()): fail(f"{db}: two columns named {new}")
        per_table[ti].add(new.lower())
        if new != old: renamed[old.lower()] = new
cols_a = dict(zip([c for _, c in before["a"]["column_names_original"]][1:],
                  [c for _, c in least["a"]["column_names_original"]][1:]))
if cols_a["name"].lower() == "name":
    fail(f"name was not renamed: {cols_a}")
for seed in range(1, 7):  # names drawn at the default mix: levels differ by spelling unless drawn once
    mixed = {t["db_id"]: t for t in json.load(open(f"{work}/mixed{seed}/tables.json"))}
    cols = dict(zip([c for _, c in before["a"]["column_names_original"]][1:],
                    [c for _, c in mixed["a"]["column_names_original"]][1:]))
    if cols["name"].lower() != cols["Name"].lower():
        fail(f"seed {seed}: one name in two spellings was renamed apart: {cols['name']}, {cols['Name']}")
names = sorted({c for t in least.values() for ti, c in t["column_names_original"] if ti >= 0})
out = subprocess.run([plainsql, "naturalness", "classify"], input="\n".join(names), capture_output=True, text=True,
                     check=True).stdout.splitlines()[1:]
share = sum(1 for line in out if line.rsplit(",", 4)[1] == "N3") / len(out)
if share < 0.8: fail(f"only {share:.2f} of the columns drawn Least are read Least: {out}")
if len(renamed) < 10: fail(f"too few columns renamed: {renamed}")
old_tables = {n.lower() for t in before.values() for n in t["table_names_original"]}
for q in json.load(open(f"{work}/least/questions.json")):
    words = {w.lower() for w in re.findall(r"[A-Za-z_0-9]+", q["query"])}
    if words & (old_tables | set(renamed)): fail(f"an old name is left in {q['query']}")
    if not words & {n.lower() for n in renamed.values()}: fail(f"no new column name in {q['query']}")
join = [q for q in json.load(open(f"{work}/least/questions.json")) if "JOIN" in q["query"].upper()]
if len(join) != 1 or join[0]["query"].upper().count(" AS T") != 2: fail(f"the join was not kept: {join}")
PY
echo "naturalness_mix: ok"
