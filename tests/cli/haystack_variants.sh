#!/usr/bin/env bash
# The training haystacks of bench/haystack_variants.py (issue #18), on a data folder made here from the haystack
# fixture (tests/linking/data/haystack): twelve copies of its two Spider databases, each with a table of its own
# columns to lend, and train questions on them; `plainsql eval haystack` holds out a fifth of them. Each variant is
# checked for what it promises: keyless drops only the held-out databases' foreign keys; wide widens one table of each
# held-out database within the bounds and keeps the questions; --cryptic-own renames that table's own columns and
# rewrites the gold queries so every name resolves; abbreviated swaps in bench/cryptic_copies.py's copies; a width
# the lenders cannot fill is refused.
#   haystack_variants.sh PLAINSQL SOURCE_DIR
set -euo pipefail
bin=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
variants=$src/bench/haystack_variants.py

mkdir -p "$work/data/spider" "$work/db"
cp -r "$src/tests/linking/data/haystack/bird" "$src/tests/linking/data/haystack/snails" "$work/data/"
python3 - "$src/tests/linking/data/haystack" "$work/data" "$work/db" <<'PY'
import json, os, sqlite3, sys
fixture, out, db_dir = sys.argv[1:]
words = ["remark", "weight", "height", "colour", "budget", "rating", "status", "region", "phone", "email"]
tables, train = [], []
for i in range(12):
    for base in json.load(open(fixture + "/spider/tables.json")):
        d = json.loads(json.dumps(base))
        d["db_id"] = f"{base['db_id']}_{i}"
        ti = len(d["table_names_original"])
        d["table_names_original"].append(f"notes_{i}")
        d["table_names"].append(f"notes {i}")
        for w in words:
            d["column_names_original"].append([ti, f"{w}_{base['db_id']}_{i}"])
            d["column_names"].append([ti, f"{w} {base['db_id']} {i}"])
            d["column_types"].append("text")
        tables.append(d)
        # A SQLite file for bench/cryptic_copies.py: the tables and their declared foreign keys, a row each.
        os.makedirs(f"{db_dir}/{d['db_id']}")
        con = sqlite3.connect(f"{db_dir}/{d['db_id']}/{d['db_id']}.sqlite")
        cols = d["column_names_original"]
        refs = {a: b for a, b in d["foreign_keys"]}
        for t, name in enumerate(d["table_names_original"]):
            defs = []
            for c, (owner, col) in enumerate(cols):
                if owner != t:
                    continue
                kind = "INTEGER" if col == "id" or col.endswith("_id") or col == "amount" else "TEXT"
                extra = " PRIMARY KEY" if c in d["primary_keys"] else ""
                if c in refs:
                    ref = cols[refs[c]]
                    extra += f' REFERENCES "{d["table_names_original"][ref[0]]}"("{ref[1]}")'
                defs.append(f'"{col}" {kind}{extra}')
            con.execute(f'CREATE TABLE "{name}" ({", ".join(defs)})')
            con.execute(f'INSERT INTO "{name}" DEFAULT VALUES')
        con.commit()
        con.close()
        if base["db_id"] == "shop":
            train += [{"db_id": d["db_id"], "question": "Total amount per customer name?",
                       "query": "SELECT T1.name, sum(T2.amount) FROM customer AS T1 JOIN orders AS T2 ON T1.id = "
                                "T2.customer_id GROUP BY T1.name"},
                      {"db_id": d["db_id"], "question": "Names of customers in Paris?",
                       "query": "SELECT name FROM customer WHERE city = 'Paris'"}]
        else:
            train.append({"db_id": d["db_id"], "question": "Titles of the courses?", "query": "SELECT title FROM course"})
json.dump(tables, open(out + "/spider/tables.json", "w"))
json.dump(train, open(out + "/spider/train.json", "w"))
json.dump([], open(out + "/spider/dev.json", "w"))
PY
"$bin" eval haystack --data-dir "$work/data" --out "$work/hs" > "$work/hs.txt" 2>&1 || fail "eval haystack: $(cat "$work/hs.txt")"
grep -q 'questions_spider_train_heldout.json: [1-9]' "$work/hs.txt" || fail "no held-out questions: $(cat "$work/hs.txt")"

# The gold queries of a questions file, one a line.
queries() {
  python3 - "$1" <<'PY'
import json, sys
for q in json.load(open(sys.argv[1])):
    print(q["query"])
PY
}

# Every gold query of a questions file resolves against a haystack's tables.
resolves() {
  queries "$1" > "$work/queries.txt"
  [ -s "$work/queries.txt" ] || fail "$1 has no questions"
  while IFS= read -r sql; do
    "$bin" identifiers --tables "$2" --db haystack "$sql" > "$work/ids.json" || fail "identifiers: $sql"
    python3 -c 'import json, sys; sys.exit(1 if json.load(open(sys.argv[1]))["unresolved"] else 0)' "$work/ids.json" \
      || fail "$sql does not resolve in $2: $(cat "$work/ids.json")"
  done < "$work/queries.txt"
}

# keyless: the held-out databases' foreign keys go, the others' stay.
python3 "$variants" keyless --haystack "$work/hs" --out "$work/k" > /dev/null
python3 - "$work/hs" "$work/k" <<'PY' || fail "keyless"
import json, sys
held = {q["source_db"] for q in json.load(open(sys.argv[1] + "/questions_spider_train_heldout.json"))}
def keys(folder):
    s = json.load(open(folder + "/tables.json"))[0]
    db = lambda i: s["table_names_original"][s["column_names_original"][i][0]].split("__")[0]
    return [db(a) for a, _ in s["foreign_keys"]]
before, after = keys(sys.argv[1]), keys(sys.argv[2])
assert any(d in held for d in before), "the fixture has no held-out foreign key"
assert not any(d in held for d in after), "a held-out foreign key was kept"
assert sorted(d for d in before if d not in held) == sorted(after), "another database's foreign key was dropped"
PY

# wide: one table of each held-out database is 8-12 columns wide, the others as they were; the questions unchanged.
python3 "$variants" wide --haystack "$work/hs" --min-width 8 --max-width 12 --out "$work/w" > /dev/null
cmp -s "$work/hs/questions_spider_train_heldout.json" "$work/w/questions_spider_train_heldout.json" \
  || fail "wide changed the questions"
python3 - "$work/hs" "$work/w" <<'PY' || fail "wide"
import collections, json, sys
held = {q["source_db"] for q in json.load(open(sys.argv[1] + "/questions_spider_train_heldout.json"))}
def widths(folder):
    s = json.load(open(folder + "/tables.json"))[0]
    return collections.Counter(s["table_names_original"][c[0]] for c in s["column_names_original"] if c[0] >= 0)
before, after = widths(sys.argv[1]), widths(sys.argv[2])
grown = {t for t in after if after[t] != before[t]}
assert {t.split("__")[0] for t in grown} == held and len(grown) == len(held), grown
assert all(8 <= after[t] <= 12 for t in grown), {t: after[t] for t in grown}
PY
resolves "$work/w/questions_spider_train_heldout.json" "$work/w/tables.json"

# wide --cryptic-own: the widened tables' own columns abbreviated, the gold queries rewritten to them.
python3 "$variants" wide --haystack "$work/hs" --min-width 8 --max-width 12 --abbreviate 1 --cryptic-own "$bin" \
  --out "$work/x" > /dev/null 2> "$work/x.txt" || fail "cryptic own: $(cat "$work/x.txt")"
grep -q '[1-9][0-9]* own columns of .* 0 whose gold query could not be rewritten' "$work/x.txt" \
  || fail "cryptic own: $(cat "$work/x.txt")"
cmp -s "$work/hs/questions_spider_train_heldout.json" "$work/x/questions_spider_train_heldout.json" \
  && fail "cryptic own left every gold query as it was"
resolves "$work/x/questions_spider_train_heldout.json" "$work/x/tables.json"
# Some native gold query no longer resolves there: the rewrite was needed.
queries "$work/hs/questions_spider_train_heldout.json" > "$work/native.txt"
needed=0
while IFS= read -r sql; do
  "$bin" identifiers --tables "$work/x/tables.json" --db haystack "$sql" | grep -q '"unresolved": \[\]' || needed=1
done < "$work/native.txt"
[ "$needed" = 1 ] || fail "every native gold query still resolves in the cryptic haystack"

# abbreviated: the held-out databases replaced by bench/cryptic_copies.py's copies.
python3 - "$work/hs/questions_spider_train_heldout.json" "$work/data/spider/train.json" "$work/heldout.json" <<'PY'
import json, sys
held = {q["source_db"] for q in json.load(open(sys.argv[1]))}
json.dump([q for q in json.load(open(sys.argv[2])) if q["db_id"] in held], open(sys.argv[3], "w"))
PY
python3 "$src/bench/cryptic_copies.py" --plainsql "$bin" --questions "$work/heldout.json" --db-dir "$work/db" \
  --abbreviate 1 --out "$work/ct" > /dev/null 2> "$work/ct.txt" || fail "cryptic copies: $(cat "$work/ct.txt")"
python3 "$variants" abbreviated --data-dir "$work/data" --copies "$work/ct" --out "$work/cdata" > /dev/null
"$bin" eval haystack --data-dir "$work/cdata" --out "$work/hsc" > "$work/hsc.txt" 2>&1 \
  || fail "eval haystack on the copies: $(cat "$work/hsc.txt")"
[ "$(grep 'questions_spider_train_heldout.json' "$work/hsc.txt")" = \
  "$(grep 'questions_spider_train_heldout.json' "$work/hs.txt")" ] || fail "held-out questions: $(cat "$work/hsc.txt")"
cmp -s "$work/hs/tables.json" "$work/hsc/tables.json" && fail "the copies changed no name"
resolves "$work/hsc/questions_spider_train_heldout.json" "$work/hsc/tables.json"

# A width the lenders cannot fill is refused with a reason, not looped on.
if timeout 60 python3 "$variants" wide --haystack "$work/hs" --min-width 500 --max-width 500 --out "$work/big" \
  2> "$work/big.txt"; then
  fail "a 500-column table was made from a few dozen names"
fi
grep -q 'cannot be widened to 500 columns' "$work/big.txt" || fail "refusal: $(cat "$work/big.txt")"
echo "haystack variants: keyless, wide, cryptic own and abbreviated checked"
