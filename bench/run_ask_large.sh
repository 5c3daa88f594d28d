#!/usr/bin/env bash
# Times `plainsql ask` end to end with the built-in translator on the 2,500-table, 90,000-column synthetic SQLite
# database (the one run_profile.sh uses): the default slice (auto) links the schema, so the translator and the trace
# see only the subset. 5 runs with a warm snapshot cache (the first, cold, run is reported apart), median of each.
#   bench/run_ask_large.sh [BUILD_DIR] [QUESTION]   (default build-release, a Release build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
question=${2:-"What is the average weight of the snakes?"}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DPLAINSQL_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target naturalness_bench plainsql >/dev/null
work=$(mktemp -d /tmp/plainsql-bench-ask.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$build/bench/naturalness_bench" --make-db "$work/big.db"
export PLAINSQL_CACHE_DIR="$work/cache"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
run() {  # prints milliseconds for one run
  local start end
  start=$(date +%s%N)
  "$build/plainsql" ask "$work/big.db" "$question" --explain >"$work/out.txt" 2>&1 || true
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}
cold=$(run)
warm=$(for i in 1 2 3 4 5; do run; done | median)
echo "plainsql ask, 2,500 tables / 90,000 columns: cold ${cold} ms, warm median ${warm} ms"
grep -E "^(SELECT|linking|generate|pipeline)" "$work/out.txt" | cut -c1-240
