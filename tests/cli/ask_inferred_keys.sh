#!/usr/bin/env bash
# `plainsql ask` infers the keys of tables no declared foreign key touches by default (`--infer-keys=none` turns it
# off), and the inferred keys' cache does not carry one run's data dictionary into the next.
#   ask_inferred_keys.sh PLAINSQL SAMPLE_DB DICTIONARY
set -euo pipefail
bin=$1 sample=$2 dictionary=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PLAINSQL_CACHE_DIR="$work/cache"
db="$work/shop.db"
sqlite3 "$db" <<'SQL'
CREATE TABLE customer (customer_id INTEGER PRIMARY KEY, customer_name TEXT);
CREATE TABLE account (account_id INTEGER PRIMARY KEY, customer_id INTEGER, account_name TEXT);
INSERT INTO customer VALUES (1, 'Ann'), (2, 'Bo'), (3, 'Cy');
INSERT INTO account VALUES (10, 1, 'main'), (11, 1, 'savings'), (12, 3, 'main');
SQL
q="How many customers do not have an account?"
"$bin" ask "$db" "$q" --force --format csv | tr -d '\r' > "$work/default.out"
grep -qx "1" "$work/default.out" || { echo "FAIL: the default did not join through the inferred key" >&2; cat "$work/default.out" >&2; exit 1; }
"$bin" ask "$db" "$q" --force --format csv --infer-keys=none | tr -d '\r' > "$work/none.out"
grep -qx "3" "$work/none.out" || { echo "FAIL: --infer-keys=none still inferred" >&2; cat "$work/none.out" >&2; exit 1; }
# A run without the dictionary, then one with it, then one without, on one cache.
sq="How many maintenance orders are still open?"
"$bin" ask "$sample" "$sq" --force --format csv --descriptions none > "$work/plain1.out"
"$bin" ask "$sample" "$sq" --force --format csv --descriptions "$dictionary" | tr -d '\r' > "$work/described.out"
"$bin" ask "$sample" "$sq" --force --format csv --descriptions none > "$work/plain2.out"
cmp -s "$work/plain1.out" "$work/plain2.out" || { echo "FAIL: the dictionary leaked into a later run" >&2; diff "$work/plain1.out" "$work/plain2.out" >&2; exit 1; }
expected=$(sqlite3 "$sample" "SELECT count(*) FROM TB_MO JOIN MO_ST_CD ON MO_ST = ST_CD WHERE IS_OPEN = 1")
grep -qx "$expected" "$work/described.out" || { echo "FAIL: the dictionary was not applied" >&2; cat "$work/described.out" >&2; exit 1; }
echo ok
