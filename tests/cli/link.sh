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
# Batch with --infer-keys on a schema alone (tables.json, no database, no declared foreign key): names and types decide.
cat >"$tmp/t.json" <<'T'
[{"db_id": "crm", "table_names_original": ["customer", "invoice"], "table_names": ["customer", "invoice"],
  "column_names_original": [[-1, "*"], [0, "customer_id"], [0, "full_name"], [1, "invoice_id"], [1, "customer_id"],
                            [1, "amount"]],
  "column_names": [[-1, "*"], [0, "customer id"], [0, "full name"], [1, "invoice id"], [1, "customer id"],
                   [1, "amount"]],
  "column_types": ["text", "number", "text", "number", "number", "number"],
  "primary_keys": [1, 3], "foreign_keys": []}]
T
cat >"$tmp/qk.json" <<'Q'
[{"db_id": "crm", "question": "What is the total invoice amount of each customer?",
  "query": "SELECT T1.full_name, sum(T2.amount) FROM customer AS T1 JOIN invoice AS T2 ON T1.customer_id = T2.customer_id GROUP BY T1.full_name"}]
Q
"$bin" link --questions "$tmp/qk.json" --tables "$tmp/t.json" --infer-keys --json >"$tmp/sk.jsonl" 2>"$tmp/errk" ||
  fail "link --infer-keys in batch: $(cat "$tmp/errk")"
grep -q 'crm: inferred foreign key invoice(customer_id) -> customer(customer_id)' "$tmp/errk" ||
  fail "no inferred key reported: $(cat "$tmp/errk")"
set +e
"$bin" link --questions "$tmp/qk.json" --tables "$tmp/t.json" --infer-keys=sideways >/dev/null 2>"$tmp/err"; code=$?
set -e
[ "$code" = 2 ] && grep -q "isolated, add, replace or none" "$tmp/err" || fail "bad --infer-keys mode: exit $code"
# Without the option the keys of tables no declared key touches are inferred (here: both tables); =none keeps the
# declared keys alone.
"$bin" link --questions "$tmp/qk.json" --tables "$tmp/t.json" --json >"$tmp/sd.jsonl" 2>"$tmp/errd" ||
  fail "link in batch: $(cat "$tmp/errd")"
grep -q 'crm: inferred foreign key invoice(customer_id) -> customer(customer_id)' "$tmp/errd" ||
  fail "default (isolated) inferred nothing: $(cat "$tmp/errd")"
"$bin" link --questions "$tmp/qk.json" --tables "$tmp/t.json" --infer-keys=none --json >"$tmp/sn.jsonl" 2>"$tmp/errn" ||
  fail "link --infer-keys=none: $(cat "$tmp/errn")"
grep -q 'inferred' "$tmp/errn" && fail "--infer-keys=none inferred: $(cat "$tmp/errn")"

# Data dictionaries: a CSV named with --descriptions, or BIRD's database_description folder beside the database,
# fill the comments the schema shows (and the linker and the prompts read); --descriptions none reads none.
src=$(cd "$(dirname "$0")/../.." && pwd)
"$bin" schema "$db" --descriptions "$src/examples/plant_dictionary.csv" --format prompt-ddl >"$tmp/ddl" ||
  fail "schema --descriptions"
grep -q -- '-- Production sites of the company' "$tmp/ddl" || fail "no table description: $(head -5 "$tmp/ddl")"
grep -q 'CRIT_FLG.*Critical flag: 1 when a failure stops production' "$tmp/ddl" || fail "no column description"
# The dictionary's phrases say what a cryptic word's initials stand for, in names it does not describe too: MO is a
# maintenance order, so MoOperation is no month's and "maintenance orders ... each month" is TB_MO.
"$bin" link "$db" "How many maintenance orders are there each month?" --json \
  --descriptions "$src/examples/plant_dictionary.csv" >"$tmp/initials.json"
python3 - "$tmp/initials.json" <<'PY' || fail "dictionary initials: $(cat "$tmp/initials.json")"
import json, sys
s = json.load(open(sys.argv[1]))["scores"]
assert s["TB_MO"] > 0.5 and s["TB_MO"] > s["MoOperation"], s
PY
mkdir -p "$tmp/db/plant/database_description"
printf '\xef\xbb\xbforiginal_column_name,column_name,column_description,data_format,value_description\r\n' \
  >"$tmp/db/plant/database_description/TB_MO.csv"
printf 'MO_ST,status,status of the maintenance order,text,"CRTD: created\r\nCLSD: closed"\r\n' \
  >>"$tmp/db/plant/database_description/TB_MO.csv"
# (outputs kept in files: `grep -q` in a pipe would stop the writer early, a failure under pipefail)
"$bin" schema "$tmp/db/plant/plant.sqlite" --format prompt-ddl >"$tmp/beside"
grep -q 'MO_ST TEXT, -- status of the maintenance order. CRTD: created; CLSD: closed' "$tmp/beside" ||
  fail "the dictionary beside the database was not read"
"$bin" schema "$tmp/db/plant/plant.sqlite" --format prompt-ddl --descriptions none >"$tmp/none"
grep -q 'maintenance order. CRTD' "$tmp/none" && fail "--descriptions none read the dictionary"
"$bin" link "$tmp/db/plant/plant.sqlite" "How many maintenance orders are closed?" >"$tmp/linked"
grep -q '^TB_MO' "$tmp/linked" || fail "link with a dictionary beside the database: $(cat "$tmp/linked")"
# In batch the dictionary of each database is read from --db-dir: a broken one is an error, unless none is asked for.
printf 'name,description\nx,y\n' >"$tmp/db/plant/database_description/broken.csv"
set +e
"$bin" link --questions "$tmp/q.json" --db-dir "$tmp/db" --json >/dev/null 2>"$tmp/err"; code=$?
set -e
[ "$code" != 0 ] && grep -q 'no column field' "$tmp/err" || fail "broken dictionary in batch: exit $code, $(cat "$tmp/err")"
"$bin" link --questions "$tmp/q.json" --db-dir "$tmp/db" --descriptions none --json >/dev/null ||
  fail "--descriptions none in batch"
set +e
"$bin" schema "$db" --descriptions "$tmp/none.csv" >/dev/null 2>"$tmp/err"; code=$?
set -e
[ "$code" != 0 ] && grep -q 'no data dictionary at' "$tmp/err" || fail "missing dictionary: exit $code"
# PLAINSQL_SUBSET_MODEL: a model file (as bench/train_linker writes one) instead of the built-in model. This one keeps
# every column (thresholds 0, a floor of all of them); a file that does not parse, or is missing, stops the command
# (exit 9 / 3) with the variable's name, rather than measuring the built-in model under the file's name.
printf 'table_threshold\t0\ncolumn_threshold\t0\nmin_share\t1\nsmall_table\t0\ncolumn\tlink\t1\n' >"$tmp/all.tsv"
q="Show the equipment descriptions of plant Riverside Works"
count() { python3 -c 'import json,sys; print(len(json.load(sys.stdin)["columns"]))'; }
n_default=$("$bin" link "$db" "$q" --json | count)
n_all=$(PLAINSQL_SUBSET_MODEL="$tmp/all.tsv" "$bin" link "$db" "$q" --json | count)
n_schema=$(python3 - "$db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
tables = [r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'")]
print(sum(len(c.execute(f'PRAGMA table_info("{t}")').fetchall()) for t in tables))
PY
)
[ "$n_all" = "$n_schema" ] && [ "$n_default" -lt "$n_schema" ] ||
  fail "PLAINSQL_SUBSET_MODEL: $n_all columns with the file, $n_default without, $n_schema in the schema"
printf 'nonsense\n' >"$tmp/bad.tsv"
set +e
PLAINSQL_SUBSET_MODEL="$tmp/bad.tsv" "$bin" link "$db" "$q" --json >"$tmp/out" 2>"$tmp/err"; code=$?
set -e
[ "$code" = 9 ] && [ ! -s "$tmp/out" ] && grep -q 'error: PLAINSQL_SUBSET_MODEL: subset model, line 1' "$tmp/err" ||
  fail "a bad PLAINSQL_SUBSET_MODEL: exit $code, $(cat "$tmp/out" "$tmp/err")"
printf 'table_threshold\t0\n' >"$tmp/empty_model.tsv"
set +e
PLAINSQL_SUBSET_MODEL="$tmp/empty_model.tsv" "$bin" link "$db" "$q" --json >/dev/null 2>"$tmp/err"; code=$?
PLAINSQL_SUBSET_MODEL="$tmp/missing.tsv" "$bin" schema "$db" >/dev/null 2>"$tmp/err2"; code2=$?
set -e
[ "$code" = 9 ] && grep -q 'holds no trees and no weights' "$tmp/err" ||
  fail "a PLAINSQL_SUBSET_MODEL without weights: exit $code, $(cat "$tmp/err")"
[ "$code2" = 3 ] && grep -q 'PLAINSQL_SUBSET_MODEL' "$tmp/err2" ||
  fail "a missing PLAINSQL_SUBSET_MODEL file: exit $code2, $(cat "$tmp/err2")"
echo "link ok"
