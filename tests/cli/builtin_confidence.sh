#!/usr/bin/env bash
# The built-in translator's learned parts (issue #19) end to end: `eval run` stores each answer's confidence and
# prints it in --json; `ask` shows an unsure answer as two readings unless --force; `builtin train` fits a model on a
# Spider-format set and `builtin lexicon` learns pairs from one, each in its shipped format, deterministically.
#   builtin_confidence.sh PLAINSQL SAMPLE_DB FIXTURES
set -euo pipefail
bin=$1 sample=$2 fixtures=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/db/plant"
cp "$sample" "$work/db/plant/plant.sqlite"
fail() { echo "FAIL: $*" >&2; exit 1; }

# eval run: a confidence per question, between 0 and 1, the same in the stored run.
"$bin" eval run --benchmark spider --questions "$fixtures/plant_train.json" --db-dir "$work/db" --system builtin \
  --runs "$work/runs.db" --name conf --json > "$work/run.json" 2> /dev/null
python3 - "$work/run.json" <<'PY' || fail "confidences in eval run --json"
import json, sys
qs = json.load(open(sys.argv[1]))["questions"]
conf = [q["confidence"] for q in qs]
assert len(conf) == 12 and all(c is not None and 0 <= c <= 1 for c in conf), conf
assert len(set(conf)) > 1, conf  # not one constant
PY
"$bin" runs --runs "$work/runs.db" show conf --json | grep -v '"run":' > "$work/stored.json"
grep -q '"confidence": 0\.' "$work/stored.json" || fail "the stored run has no confidence"

# ask: an unsure answer is not run as the answer; --force runs it.
q="How has the weather affected the experience at plants on rainy Mondays?"
"$bin" ask "$sample" "$q" --llm none > "$work/unsure.txt"
grep -q '^-- unsure: ' "$work/unsure.txt" || fail "no unsure note: $(cat "$work/unsure.txt")"
grep -q 'rows)' "$work/unsure.txt" && fail "an unsure answer was shown as rows"
"$bin" ask "$sample" "$q" --llm none --force > "$work/forced.txt"
grep -q '(6 rows)' "$work/forced.txt" || fail "--force did not show the answer: $(cat "$work/forced.txt")"

# ask --explain: what the shape model expects of the query ("how many ... each": a count per group).
"$bin" ask "$sample" "How many technicians does each plant have?" --llm none --explain > "$work/shape.txt"
grep -q 'shape model: the question reads like a query with [^"]*count 0\.' "$work/shape.txt" \
  || fail "no shape prediction in --explain: $(cat "$work/shape.txt")"

# builtin train: a model in the shipped format, the same twice.
"$bin" builtin train --questions "$fixtures/plant_train.json" --db-dir "$work/db" --validation 0.5 \
  -o "$work/a.tsv" > "$work/train.txt" 2> /dev/null
"$bin" builtin train --questions "$fixtures/plant_train.json" --db-dir "$work/db" --validation 0.5 \
  -o "$work/b.tsv" > /dev/null 2>&1
cmp "$work/a.tsv" "$work/b.tsv" || fail "training is not deterministic"
grep -q '^12 questions (0 skipped)' "$work/train.txt" || fail "report: $(cat "$work/train.txt")"
for f in bias threshold coverage fails columns; do grep -q "^$f	" "$work/a.tsv" || fail "no $f line in the model"; done
"$bin" builtin train --questions "$fixtures/plant_train.json" --db-dir "$work/nowhere" 2> "$work/err.txt" && fail "no databases"
grep -q 'no question could be used' "$work/err.txt" || fail "unclear error: $(cat "$work/err.txt")"
# builtin lexicon: pairs in the shipped format, the same twice; the defaults want pairs from several databases.
"$bin" builtin lexicon --questions "$fixtures/plant_train.json" --db-dir "$work/db" -o "$work/none.tsv" > /dev/null 2>&1
[ "$(grep -vc '^#' "$work/none.tsv")" -eq 0 ] || fail "pairs from one database with the defaults"
for f in la lb; do
  "$bin" builtin lexicon --questions "$fixtures/plant_train.json" --db-dir "$work/db" --min-databases 1 --min-count 1 --min-share 0.2 \
    -o "$work/$f.tsv" > /dev/null 2>&1
done
cmp "$work/la.tsv" "$work/lb.tsv" || fail "the lexicon is not deterministic"
grep -q '^local	citi	' "$work/la.tsv" || fail "the paraphrase's pair (locale -> city) not learned: $(cat "$work/la.tsv")"
"$bin" builtin lexicon --questions "$fixtures/plant_train.json" --db-dir "$work/db" --min-databases 1 --min-count 1 \
  --min-share 0.2 --no-paraphrases -o "$work/lc.tsv" > /dev/null 2>&1
grep -q '^local' "$work/lc.tsv" && fail "--no-paraphrases learned from the paraphrase"
awk -F'\t' '!/^#/ && NF != 5 { bad = 1 } END { exit bad }' "$work/la.tsv" || fail "a lexicon line without 5 fields"
PLAINSQL_LEXICON="$work/la.tsv" "$bin" ask "$sample" "How many plants are there?" --llm none > /dev/null \
  || fail "ask with a lexicon given by PLAINSQL_LEXICON"
PLAINSQL_LEXICON=builtin "$bin" ask "$sample" "How many plants are there?" --llm none > /dev/null \
  || fail "ask with the shipped lexicon"
PLAINSQL_LEXICON=none "$bin" ask "$sample" "How many plants are there?" --llm none > /dev/null \
  || fail "ask without learned pairs"
# A lexicon file that is missing or does not parse stops the command, naming the variable.
printf 'one\ttwo\n' > "$work/badlex.tsv"
for f in missing badlex; do
  code=0
  PLAINSQL_LEXICON="$work/$f.tsv" "$bin" ask "$sample" "How many plants are there?" --llm none 2> "$work/lexerr.txt" \
    > /dev/null || code=$?
  [ "$code" != 0 ] && grep -q 'error: PLAINSQL_LEXICON' "$work/lexerr.txt" ||
    fail "a $f lexicon file: exit $code, $(cat "$work/lexerr.txt")"
done
echo "builtin confidence ok"
