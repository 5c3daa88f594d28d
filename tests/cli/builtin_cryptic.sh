#!/usr/bin/env bash
# The built-in translator on cryptic names (issue #19): three Spider dev databases renamed to SNAILS' Low (N2) names with
# their data unchanged (bench/cryptic_copies.py), their questions answered with no model. Cryptic words of names link to
# the question words they abbreviate ("Cty" for "cities"): EX on the copies was 0.60 when this test was written, 0.27
# over all dev copies before those links.
#   builtin_cryptic.sh PLAINSQL SOURCE_DIR SHARED_DATA
set -euo pipefail
bin=$1 src=$2 data=$3
if [ ! -f "$data/spider/dev.json" ] || [ ! -d "$data/snails/crosswalks-spider" ]; then
  echo "data missing: $data/spider/dev.json or $data/snails/crosswalks-spider" >&2
  [ "${CI:-}" = "true" ] && exit 1
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

python3 - "$data/spider/dev.json" "$work/dev3.json" <<'PY'
import json, sys
keep = {"concert_singer", "pets_1", "poker_player"}
qs = [q for q in json.load(open(sys.argv[1])) if q["db_id"] in keep]
json.dump(qs, open(sys.argv[2], "w"))
PY
python3 "$src/bench/cryptic_copies.py" --plainsql "$bin" --questions "$work/dev3.json" \
  --db-dir "$data/spider/database" --crosswalks "$data/snails/crosswalks-spider" --level N2 --out "$work/n2" \
  2> "$work/copies.txt" || fail "cryptic copies: $(cat "$work/copies.txt")"
grep -q '^3 databases renamed to N2, 127 questions kept, 0 ' "$work/copies.txt" || fail "$(cat "$work/copies.txt")"
# The copies hold cryptic names only: no table of the native names is left.
sqlite3 "$work/n2/database/concert_singer/concert_singer.sqlite" "SELECT name FROM sqlite_master WHERE type = 'table'" \
  | grep -qx 'singer' && fail "concert_singer was not renamed"
"$bin" eval run --benchmark spider --questions "$work/n2/questions.json" --db-dir "$work/n2/database" \
  --system builtin --runs "$work/runs.db" --json > "$work/run.json" 2> /dev/null
python3 - "$work/run.json" <<'PY' || fail "EX on the N2 copies"
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(f"EX strict on the N2 copies: {s['ex_strict']:.3f} of {s['count']}")
assert s["count"] == 127, s
assert s["ex_strict"] >= 0.50, s["ex_strict"]
PY
