#!/usr/bin/env bash
# The pipeline through the CLI against the scripted server program: `plainsql ask` answers (table and JSON with the
# trace), and `plainsql eval run --system pipeline` scores the pipeline's answers with tokens per stage; the run's
# configuration is stored without the API key.
#   ask_pipeline.sh PLAINSQL SAMPLE_DB FAKE_LLM_SERVER FIXTURES
set -euo pipefail
bin=$1 sample=$2 fake=$3 fixtures=$4
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
start() {  # start REPLIES: the scripted server, its URL in $url
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  rm -f url
  "$fake" "$1" url 2> server.err &
  server=$!
  for _ in $(seq 1 400); do [ -s url ] && break; sleep 0.05; done  # up to 20 s on a loaded machine
  url=$(cat url)
}
fence='```'
printf '{"content": "Sure.\\n%ssql\\nSELECT count(*) FROM plant;\\n%s"}\n' "$fence" "$fence" > one.jsonl
start one.jsonl
export PLAINSQL_LLM_API_KEY=sk-test-secret-123
"$bin" ask "$sample" "How many plants are there?" --llm "$url" --model fake > ask.out
grep -q "SELECT count(\*) FROM plant" ask.out || { echo "FAIL: ask output" >&2; cat ask.out >&2; exit 1; }
expected=$(sqlite3 "$sample" "SELECT count(*) FROM plant")
grep -q "^ *$expected\$" ask.out && grep -q "(1 row)" ask.out || { echo "FAIL: no count" >&2; cat ask.out >&2; exit 1; }
"$bin" ask "$sample" "How many plants are there?" --llm "$url" --model fake --format json > ask.json
grep -q '"stage": "generate"' ask.json || { echo "FAIL: no trace in JSON" >&2; exit 1; }
grep -q '"prompt_tokens": 10' ask.json || { echo "FAIL: no tokens in the trace" >&2; exit 1; }

# ask --rewrite (issue #20): the model answers, rewrites the question without the features that lower its estimate,
# and answers the rewritten question; the rewrite request names those features.
{
  printf '{"content": "%ssql\\nSELECT count(*) FROM plant\\n%s"}\n' "$fence" "$fence"
  printf '{"content": "Rewritten question: How many plants are there?"}\n'
  printf '{"content": "%ssql\\nSELECT count(*) FROM plant\\n%s"}\n' "$fence" "$fence"
} > rewrite.jsonl
start rewrite.jsonl
long_q="For the whole company, could you tell me roughly how many of the plants there happen to be in total right now?"
"$bin" ask "$sample" "$long_q" --llm "$url" --model fake --rewrite > rewrite.out 2> rewrite.err
grep -q -- "-- rewritten without what lowers the estimate: How many plants are there?" rewrite.out \
  || { echo "FAIL: ask --rewrite output" >&2; cat rewrite.out rewrite.err >&2; exit 1; }
[ "$(grep -c "(1 row)" rewrite.out)" -eq 2 ] || { echo "FAIL: two answers expected" >&2; cat rewrite.out >&2; exit 1; }
start rewrite.jsonl
"$bin" ask "$sample" "$long_q" --llm "$url" --model fake --rewrite --format json > rewrite.json 2>/dev/null
python3 - <<'PY' || { echo "FAIL: ask --rewrite JSON" >&2; exit 1; }
import json
j = json.load(open("rewrite.json"))
assert j["rewrite"]["question"] == "How many plants are there?", j["rewrite"]
assert j["estimate"]["hurting"], j["estimate"]
assert j["rewrite"]["estimate"]["probability"] > j["estimate"]["probability"], (j["estimate"], j["rewrite"]["estimate"])
PY
"$bin" ask "$sample" "$long_q" --llm none --rewrite > /dev/null 2> norewrite.err && { echo "FAIL: --rewrite without a model" >&2; exit 1; }
grep -q -- "--rewrite needs a model" norewrite.err || { echo "FAIL: --rewrite error" >&2; cat norewrite.err >&2; exit 1; }

# features --judge (issue #20): the features only a model can judge, one request each, then from the cache.
printf '{"content": "Yes"}\n' > yes.jsonl
start yes.jsonl
"$bin" features "$sample" "How many plants are there?" --judge --llm "$url" --model fake --judge-cache judged.tsv \
  --json > judged.json 2> judged.err
grep -q '"p.m_vague"' judged.json || { echo "FAIL: features --judge" >&2; cat judged.json judged.err >&2; exit 1; }
[ "$(grep -c . judged.tsv)" -ge 8 ] || { echo "FAIL: judge cache" >&2; exit 1; }
kill "$server"; wait "$server" 2>/dev/null || true; server=""
"$bin" features "$sample" "How many plants are there?" --judge --llm "$url" --model fake --judge-cache judged.tsv \
  --json > judged2.json || { echo "FAIL: a cached judgement needs no server" >&2; exit 1; }
cmp -s judged.json judged2.json || { echo "FAIL: cached judgements differ" >&2; exit 1; }
"$bin" features "$sample" "How many plants?" --judge --llm none 2> nojudge.err > /dev/null && { echo "FAIL: --judge without a model" >&2; exit 1; }
grep -q -- "--judge needs a model" nojudge.err || { echo "FAIL: --judge error" >&2; cat nojudge.err >&2; exit 1; }

# eval run with the pipeline as the system: three questions, the second answered wrongly.
{
  printf '{"content": "%ssql\\nSELECT count(*) FROM plant\\n%s"}\n' "$fence" "$fence"
  printf '{"content": "%ssql\\nSELECT plant_name FROM plant ORDER BY plant_name\\n%s"}\n' "$fence" "$fence"
  printf '{"content": "%ssql\\nSELECT MO_ST, count(*) FROM TB_MO GROUP BY MO_ST\\n%s"}\n' "$fence" "$fence"
} > three.jsonl
start three.jsonl
cp "$sample" plant.db
PLAINSQL_LLM_URL=$url PLAINSQL_LLM_MODEL=fake "$bin" eval run --benchmark custom \
  --questions "$fixtures/plant_questions.jsonl" --db-dir . --system pipeline --runs runs.db --name piped --json > run.json
grep -q '"ex_strict": 0.666' run.json || { echo "FAIL: EX strict of the piped run" >&2; cat run.json >&2; exit 1; }
"$bin" runs --runs runs.db export piped > export.jsonl
grep -q '"stage":"generate","ms":[0-9.e+-]*,"prompt_tokens":10,"completion_tokens":5' export.jsonl \
  || { echo "FAIL: tokens per stage not stored" >&2; head -c 600 export.jsonl >&2; exit 1; }
"$bin" runs --runs runs.db list | grep piped | grep -q "pipeline fake (omnisql, k=1)" \
  || { echo "FAIL: system label" >&2; "$bin" runs --runs runs.db list >&2; exit 1; }
if grep -rq "sk-test-secret-123" runs.db* run.json export.jsonl ask.json ask.out; then
  echo "FAIL: the API key was written out" >&2
  exit 1
fi
# The stored configuration resumes without the environment's URL.
# (Into a file first: with pipefail, grep -q leaving early would fail the writer with SIGPIPE.)
"$bin" runs --runs runs.db stats piped > stats.json
grep -q '"generate"' stats.json || { echo "FAIL: stats lack the stage" >&2; exit 1; }
echo "pipeline ok"
