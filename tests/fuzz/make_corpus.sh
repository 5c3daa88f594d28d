#!/usr/bin/env bash
# Writes a libFuzzer seed corpus from the gold queries in ../shared/data: one file per query, the first byte naming
# the dialect (0 sqlite, 1 postgres, 2 tsql, 3 mysql) as parse_roundtrip_fuzzer.cpp expects.
#   tests/fuzz/make_corpus.sh OUT_DIR [SHARED_DATA]
set -euo pipefail
out=${1:?usage: make_corpus.sh OUT_DIR [SHARED_DATA]}
data=${2:-$(cd "$(dirname "$0")/../../../shared/data" && pwd)}
mkdir -p "$out"
n=0
emit() {  # dialect byte, file of one query per line (text after a TAB dropped)
  local byte=$1 file=$2
  while IFS= read -r line; do
    q=${line%%$'\t'*}
    [ -n "$q" ] || continue
    n=$((n + 1))
    { printf "\\x0$byte"; printf '%s' "$q"; } >"$out/q$n"
  done <"$file"
}
emit 0 "$data/spider/dev_gold.sql"
emit 0 "$data/spider/train_gold.sql"
emit 0 "$data/bird/dev_gold.sql"
emit 1 "$data/bird/mini_dev/mini_dev_postgresql_gold.sql"
emit 3 "$data/bird/mini_dev/mini_dev_mysql_gold.sql"
for f in "$data"/snails/pairs/*.sql; do  # whole files: statements are split by the parser (only the first is kept)
  n=$((n + 1))
  { printf '\x02'; awk 'BEGIN{RS=";"} NR==1{print; exit}' "$f"; } >"$out/q$n"
done
echo "make_corpus: $n seeds in $out"
