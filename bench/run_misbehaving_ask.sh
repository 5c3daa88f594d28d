#!/usr/bin/env bash
# ask against each misbehaving-model scenario of tests/pipeline/data/misbehaving_llm.jsonl (issue #16), with the
# default settings: exit code, wall time, max RSS, the answer, and who answered; the database's hash before and after.
#   bench/run_misbehaving_ask.sh BUILD_DIR
set -u
build=${1:-build}
bin=$build/plainsql fake=$build/tests/fake_llm_server
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db=$work/plant.db
cp "$build/examples/plant.db" "$db"
before=$(sha256sum "$db" | cut -d' ' -f1)
date -u
while IFS= read -r line; do
  name=$(jq -r .name <<<"$line")
  jq -c '.replies[]' <<<"$line" > "$work/replies.jsonl"
  rm -f "$work/url"
  "$fake" "$work/replies.jsonl" "$work/url" 2>/dev/null &
  srv=$!
  for _ in $(seq 100); do [ -s "$work/url" ] && break; sleep 0.05; done
  /usr/bin/time -f "%e %M" -o "$work/time" "$bin" ask "$db" "How many plants are there?" --llm "$(cat "$work/url")" \
    --model m > "$work/out" 2> "$work/err"
  rc=$?
  kill "$srv"; wait "$srv" 2>/dev/null
  read -r secs kb < "$work/time"
  who=model; grep -q "note: the model" "$work/err" && who=built-in
  printf '| %s | %s | %.1f s | %.1f MB | %s | %s |\n' "$name" "$rc" "$secs" "$(echo "$kb/1024" | bc -l)" \
    "$(sed -n 5p "$work/out" | tr -d ' ')" "$who"
done < "$(dirname "$0")/../tests/pipeline/data/misbehaving_llm.jsonl"
after=$(sha256sum "$db" | cut -d' ' -f1)
echo "database unchanged: $([ "$before" = "$after" ] && echo yes || echo NO)"
