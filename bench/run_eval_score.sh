#!/usr/bin/env bash
# Times `plainsql eval score` on the 536 Spider dev questions with the gold queries as predictions (every query of both
# sides executed, every metric computed), side by side with bench/official_ex.py (plain Python, EX only): 7 alternating
# runs each after one warm-up, medians and their ratio.
#   bench/run_eval_score.sh [BUILD_DIR] [SPIDER_DIR]   (defaults build-release, ../shared/data/spider)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
spider=${2:-../shared/data/spider}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DPLAINSQL_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target plainsql >/dev/null
work=$(mktemp -d /tmp/plainsql-bench-eval.XXXXXX)
trap 'rm -rf "$work"' EXIT
cut -f1 "$spider/dev_gold.sql" >"$work/pred.sql"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() {  # runs the command, prints its wall time in milliseconds
  local start end
  start=$(date +%s%N)
  "$@" >"$work/out.txt"
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}
ours() { "$build/plainsql" eval score --questions "$spider/dev.json" --db-dir "$spider/database" --predictions "$work/pred.sql"; }
python_ex() { python3 bench/official_ex.py "$spider/dev.json" "$spider/database" "$work/pred.sql"; }
ours >/dev/null
python_ex >/dev/null
for i in 1 2 3 4 5 6 7; do
  echo "ours $(ms ours)" >>"$work/times"
  echo "python $(ms python_ex)" >>"$work/times"
done
a=$(awk '$1 == "ours" {print $2}' "$work/times" | median)
b=$(awk '$1 == "python" {print $2}' "$work/times" | median)
echo "plainsql eval score (536 Spider dev, every metric): median ${a} ms"
echo "official_ex.py (plain Python, EX only):            median ${b} ms"
awk -v a="$a" -v b="$b" 'BEGIN {printf "ratio python / plainsql: %.1f\n", b / a}'
ours | head -3
python_ex
