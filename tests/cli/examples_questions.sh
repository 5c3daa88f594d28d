#!/usr/bin/env bash
# Every question listed in examples/README.md is answered by `plainsql ask` with the built-in translator (no LLM):
# exit 0, a query and at least one row; two answers are checked against the data.
#   examples_questions.sh PLAINSQL SAMPLE_DB SOURCE_DIR
set -euo pipefail
bin=$1 db=$2 src=$3
unset PLAINSQL_LLM_URL PLAINSQL_LLM_MODEL
mapfile -t questions < <(sed -n '/<!-- questions:/,/<!-- end of questions -->/p' "$src/examples/README.md" | sed -n 's/^- //p')
[ "${#questions[@]}" -ge 8 ] || { echo "FAIL: found ${#questions[@]} questions in examples/README.md" >&2; exit 1; }
for q in "${questions[@]}"; do
  out=$("$bin" ask "$db" "$q" --format csv) || { echo "FAIL: no answer to: $q" >&2; exit 1; }
  rows=$(printf '%s\n' "$out" | sed '1,/^$/d' | tail -n +2 | grep -c . || true)
  [ "$rows" -ge 1 ] || { echo "FAIL: no rows for: $q" >&2; printf '%s\n' "$out" >&2; exit 1; }
  echo "ok: $q ($rows rows)"
done
# Two answers against the data itself.
want=$(sqlite3 "$db" "SELECT count(*) FROM plant")
got=$("$bin" ask "$db" "How many plants are there?" --format csv | tail -1 | tr -d "\r")
[ "$got" = "$want" ] || { echo "FAIL: plants: $got, want $want" >&2; exit 1; }
want=$(sqlite3 "$db" "SELECT p.plant_name FROM plant p JOIN technician t ON t.plant_id = p.plant_id GROUP BY p.plant_id
                      ORDER BY count(*) DESC LIMIT 1")
got=$("$bin" ask "$db" "Which plant has the most technicians?" --format csv | tail -1 | tr -d "\r")
[ "$got" = "$want" ] || { echo "FAIL: most technicians: $got, want $want" >&2; exit 1; }
# (The whole output first: head or grep -q in a pipe may stop the writer early, a failure under pipefail.)
out=$("$bin" ask "$db" "Show the equipment descriptions of plant Riverside Works")
[[ ${out%%$'\n'*} == *EQ_DESC* ]] || { echo "FAIL: EQ_DESC not reached through its expansion" >&2; exit 1; }
echo "examples ok"
