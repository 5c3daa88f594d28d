#!/usr/bin/env bash
# `plainsql link --method skalpel` end to end (issue #18) against the scripted server program: the tables are described
# once (a second run reads them from the cache and asks only for the decomposition), the offline embedder stands in
# without an embedding model, an embedding model on the server is used when named, batch mode writes JSON lines, and
# the API key appears in no output and no cache file.
#   link_skalpel.sh PLAINSQL SAMPLE_DB FAKE_LLM_SERVER
set -euo pipefail
bin=$1 db=$2 fake=$3
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
start() {  # start REPLIES: the scripted server, its URL in $url
  rm -f url
  "$fake" "$1" url 2> server.err &
  server=$!
  for _ in $(seq 1 400); do [ -s url ] && break; sleep 0.05; done  # up to 20 s on a loaded machine
  url=$(cat url)
}
stop() {  # stop the server and wait for it (in this shell: a subshell cannot wait for it)
  kill "$server" && wait "$server" 2>/dev/null || true
  server=""
}
served() { sed -n 's/^fake_llm_server: \([0-9]*\) requests$/\1/p' server.err; }  # requests the last server got
# One reply serves both prompts: a description object that also holds a list of phrases.
fence='```'
printf '{"content": "%sjson\\n{\\"description\\": \\"A plant is a factory where technicians work.\\", \\"phrases\\": [\\"A plant is a factory.\\", \\"A technician is a worker at a plant.\\"]}\\n%s"}\n' \
  "$fence" "$fence" > replies.jsonl
export PLAINSQL_CACHE_DIR=$work/cache PLAINSQL_LLM_API_KEY=sk-test-secret-456
unset PLAINSQL_LLM_URL PLAINSQL_LLM_MODEL OPENAI_API_KEY

start replies.jsonl
q="Which plant has the most technicians?"
"$bin" link "$db" "$q" --method skalpel --llm "$url" --model fake > first.out || fail "first run exited $?"
n=$(sed -n 's/^note: descriptions: 0 from the cache, \([0-9]*\) written by fake.*/\1/p' first.out)
[ -n "$n" ] && [ "$n" -gt 0 ] || fail "no descriptions written: $(cat first.out)"
grep -q '^note: embeddings: the offline sparse embedder (no embedding model configured)' first.out ||
  fail "no offline-embedder note: $(cat first.out)"
grep -q '^note: 2 phrases: A plant is a factory. | A technician is a worker at a plant.' first.out ||
  fail "no phrases: $(cat first.out)"
grep -q 'tables,.*columns' first.out || fail "no size line: $(cat first.out)"
"$bin" link "$db" "$q" --method skalpel --llm "$url" --model fake > second.out || fail "second run exited $?"
grep -q "^note: descriptions: $n from the cache, 0 written" second.out || fail "not from the cache: $(cat second.out)"
stop
requests=$(served)
[ "$requests" = $((n + 2)) ] || fail "expected $n descriptions and 2 decompositions, the server got $requests requests"

# An embedding model on the same server; JSON output.
start replies.jsonl
"$bin" link "$db" "$q" --method skalpel --llm "$url" --model fake --embedding-model fake-embed > emb.out ||
  fail "embedding run exited $?"
grep -q "^note: embeddings: fake-embed at $url" emb.out || fail "no embedding note: $(cat emb.out)"
"$bin" link "$db" "$q" --method skalpel --llm "$url" --model fake --json --max-distance 2 > one.json
python3 - one.json "$n" <<'PY' || fail "bad JSON: $(cat one.json)"
import json, sys
j = json.load(open(sys.argv[1]))
assert set(j) == {"tables", "columns", "scores", "ms"}, j.keys()
assert len(j["tables"]) == int(sys.argv[2]), j["tables"]  # distance 2 keeps every table
assert all(0 <= v <= 1 for v in j["scores"].values())
PY

# Batch: a Spider-layout folder with the sample database.
mkdir -p db/plant
cp "$db" db/plant/plant.sqlite
cat > q.json <<'Q'
[{"db_id": "plant", "question": "How many plants are there?", "query": "SELECT count(*) FROM plant"},
 {"db_id": "plant", "question": "List the technicians.", "query": "SELECT * FROM technician"}]
Q
PLAINSQL_LLM_URL=$url PLAINSQL_LLM_MODEL=fake "$bin" link --questions q.json --db-dir db --method skalpel --json \
  > batch.jsonl || fail "batch exited $?"
[ "$(wc -l < batch.jsonl)" = 2 ] || fail "expected 2 subset lines: $(cat batch.jsonl)"
stop

# Without a model: a clear error.
set +e
"$bin" link "$db" "$q" --method skalpel > none.out 2> none.err; code=$?
set -e
[ "$code" != 0 ] && grep -q "the skalpel method needs an LLM" none.err || fail "no model: exit $code, $(cat none.err)"

# The key is in no output and no cache file.
! grep -rq "sk-test-secret" ./*.out ./*.json ./*.jsonl ./*.err cache || fail "the API key leaked"
echo "link skalpel ok"
