#!/usr/bin/env bash
# The example store through the CLI (issue #17): build from a custom file of solved questions over two databases (one
# known only from a tables.json), build again (nothing added), add a question by hand (and once more: nothing added),
# stats and select (text and JSON), the examples in `plainsql prompt` and in `ask --explain`, and `eval run` in the
# thesis's configurations against the scripted model server. Outputs are compared with golden files in
# tests/cli/examples/ (the temporary directory written as $WORK, times as TIME); UPDATE_GOLDEN=1 rewrites them.
#   examples_store.sh PLAINSQL SAMPLE_DB FIXTURES FAKE_LLM_SERVER
set -euo pipefail
bin=$1 sample=$2 fixtures=$3 fake=$4
golden=$(cd "$(dirname "$0")/examples" && pwd)
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
mkdir dbs
cp "$sample" dbs/plant.db
store=$work/train.examples
fail() { echo "FAIL: $*" >&2; exit 1; }
check() {  # check NAME: NAME.out, with paths and times normalized, against $golden/NAME.out
  sed -E -e "s|$work|\$WORK|g" -e "s|$fixtures|\$FIXTURES|g" -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z/TIME/g' \
    "$1.out" >"$1.norm"
  if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
    cp "$1.norm" "$golden/$1.out"
    return
  fi
  diff -u "$golden/$1.out" "$1.norm" || fail "$1 differs from tests/cli/examples/$1.out"
}
build() { "$bin" examples build --benchmark custom --questions "$fixtures/examples_train.jsonl" \
  --tables "$fixtures/tables.json" --db-dir dbs --store "$store" --batch 4; }

build >build.out
check build
build >rebuild.out
check rebuild
"$bin" examples add --store "$store" "$sample" "Which technicians work in plant 2?" \
  "SELECT first_name FROM technician WHERE plant_id = 2" >add.out
"$bin" examples add --store "$store" "$sample" "Which technicians work in plant 2?" \
  "SELECT first_name FROM technician WHERE plant_id = 2" >>add.out
check add
"$bin" examples stats --store "$store" >stats.out
check stats
"$bin" examples --store "$store" stats --json >stats_json.out
check stats_json
"$bin" examples select --store "$store" "$sample" "How many plants are there?" -k 3 >select.out
check select
"$bin" examples select --store "$store" "$sample" "How many plants are there?" -k 3 --json >select_json.out
check select_json
"$bin" examples select --store "$store" --benchmark custom --questions "$fixtures/plant_questions.jsonl" \
  --tables "$fixtures/tables.json" --db-dir dbs -k 2 --json >select_file.out
check select_file
[ "$(wc -l <select_file.out)" = 3 ] || fail "one JSON line per question"
"$bin" prompt "$sample" "How many plants are there?" --style dail_sql --examples "$store" --examples-k 2 >prompt.out
check prompt
"$bin" ask "$sample" "How many plants are there?" --llm none --examples "$store" --format json >ask.json
python3 - ask.json <<'EOF' || fail "ask --examples: the examples stage"
import json, sys
stages = {s["stage"]: s for s in json.load(open(sys.argv[1]))["trace"]["stages"]}
d = stages["examples"]["detail"]
assert d["draft_by"] == "builtin" and d["masked_draft"] == "SELECT count(*) FROM <mask>", d
scores = [e["score"] for e in d["examples"]]
assert len(scores) == 5 and scores == sorted(scores, reverse=True), scores
EOF

# eval run: the thesis's configurations against the scripted model server.
fence='```'
printf '{"content": "%ssql\\nSELECT count(*) FROM plant\\n%s"}\n' "$fence" "$fence" >replies.jsonl
"$fake" replies.jsonl url 2>server.err &
server=$!
for _ in $(seq 1 400); do [ -s url ] && break; sleep 0.05; done  # up to 20 s on a loaded machine
export PLAINSQL_LLM_URL=$(cat url) PLAINSQL_LLM_MODEL=fake
"$bin" examples build --benchmark custom --questions "$fixtures/plant_questions.jsonl" --db-dir dbs \
  --store ground.examples >/dev/null
run() {  # run NAME ARGS...: an eval run of the plant questions, its stages
  local name=$1
  shift
  "$bin" eval run --benchmark custom --questions "$fixtures/plant_questions.jsonl" --db-dir dbs --system pipeline \
    --runs runs.db --name "$name" "$@" >/dev/null
  "$bin" runs --runs runs.db export "$name" | python3 -c '
import json, sys
print(" ".join(s["stage"] for s in json.loads(sys.stdin.readline())["stages"]))'
}
[ "$(run baseline --configuration baseline)" = "catalog naturalness examples generate refine vote rewrite execute execute gold execute prediction scoring" ] \
  || fail "baseline: $(run baseline2 --configuration baseline)"
[ "$(run zero --configuration zero-shot)" = "catalog naturalness linking examples generate refine vote rewrite execute execute gold execute prediction scoring" ] \
  || fail "zero-shot stages"
run train --configuration train --examples "$store" >/dev/null
run ground --configuration ground --examples ground.examples >/dev/null
"$bin" runs --runs runs.db list >list.out
for c in baseline zero-shot train ground; do
  grep -q "pipeline fake (omnisql, k=1, $c)" list.out || fail "runs list lacks the $c configuration"
done
# Ground needs a store of the benchmark's own questions; train and ground need a store; baseline takes none.
"$bin" eval run --benchmark custom --questions "$fixtures/plant_questions.jsonl" --db-dir dbs --system pipeline \
  --runs runs.db --configuration ground --examples "$store" 2>ground_err.out && fail "ground with a train store ran"
grep -q "holds none of this benchmark's questions" ground_err.out || fail "ground with a train store: $(cat ground_err.out)"
"$bin" eval run --benchmark custom --questions "$fixtures/plant_questions.jsonl" --db-dir dbs --system pipeline \
  --runs runs.db --configuration train 2>train_err.out && fail "train without a store ran"
grep -q "needs --examples STORE" train_err.out || fail "train without a store: $(cat train_err.out)"
echo "examples store ok"
