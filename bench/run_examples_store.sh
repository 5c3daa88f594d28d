#!/usr/bin/env bash
# Issue #17's scale bar, "a store of 1,000,000 examples (replicate the training set with perturbed questions) builds in
# under 3 minutes", reproducibly: bench/replicate_questions.py writes N solved questions made from Spider's train.json
# (the first pass as it is, then copies with perturbed questions, every one distinct; a fixed seed, so the same file
# each time: its SHA-256 is printed), then
#   1. `plainsql examples build` from it into a fresh SQLite store, under /usr/bin/time -v: wall time, peak RSS;
#   2. `plainsql examples stats` of the store, and the store's size on disk;
#   3. `plainsql examples select --questions` for the first 5 questions of dev.json, under /usr/bin/time -v, from the
#      store and from an empty one: the difference is loading the store for selection (every example read and
#      embedded); wall time, peak RSS.
#   bench/run_examples_store.sh [BUILD_DIR] [SPIDER_DIR] [N]     defaults: build-release, ../shared/data/spider, 1000000
# Build a Release binary first:
#   cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DPLAINSQL_BUILD_TESTS=OFF -DPLAINSQL_BUILD_BENCH=ON
#   cmake --build build-release -j2 --target plainsql
# The work folder (about 0.5 GB per million questions for the file, more for the store) is made with mktemp under
# $TMPDIR and removed at the end unless KEEP=1. Python: $PLAINSQL_PYTHON or python3 (standard library only).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
spider=${2:-../shared/data/spider}
n=${3:-1000000}
bin="$build/plainsql"
python=${PLAINSQL_PYTHON:-python3}
[ -x "$bin" ] || { echo "run_examples_store: $bin not built (cmake --build $build --target plainsql)" >&2; exit 1; }
for f in train.json dev.json tables.json database; do
  [ -e "$spider/$f" ] || { echo "run_examples_store: $spider/$f not found" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "run_examples_store: /usr/bin/time not found (Debian package time)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/examples_store.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then echo "work folder (kept): $work"; else trap 'rm -rf "$work"' EXIT; fi
questions=$work/questions.json
store=$work/store.examples

# The figures /usr/bin/time -v wrote to $1: wall time, CPU time (user + system: what the wall time would be on a
# core of its own, as the build is single-threaded but for the distances) and peak resident set size.
timed() {
  awk -F': ' '/Elapsed \(wall clock\)/ {wall = $2} /User time/ {user = $2} /System time/ {sys = $2}
    /Percent of CPU/ {cpu = $2} /Maximum resident set size/ {rss = $2}
    END {printf "wall %s, CPU %.1f s (user %.1f, system %.1f; %s of one core), peak RSS %.0f MiB\n",
         wall, user + sys, user, sys, cpu, rss / 1024}' "$1"
}

echo "machine: $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'), load$(uptime | sed 's/.*load average:/ average:/')"
echo "binary: $bin, built $(stat -c %y "$bin" | cut -d. -f1)"
echo "source tree: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
start=$(date +%s%N)
"$python" bench/replicate_questions.py "$spider/train.json" "$n" "$questions"
echo "questions file: $(du -h "$questions" | cut -f1), written in $((($(date +%s%N) - start) / 1000000)) ms"

echo
echo "== build: $bin examples build --benchmark spider --questions QUESTIONS --tables $spider/tables.json" \
  "--db-dir $spider/database --store STORE"
/usr/bin/time -v -o "$work/build.time" "$bin" examples build --benchmark spider --questions "$questions" \
  --tables "$spider/tables.json" --db-dir "$spider/database" --store "$store"
echo "build: $(timed "$work/build.time")"
echo "store on disk: $(du -ch "$store"* | tail -1 | cut -f1) ($(stat -c %s "$store") bytes in $(basename "$store"))"

echo
echo "== stats"
"$bin" examples stats --store "$store"

echo
echo "== select: the first 5 dev questions, from the store and from an empty store (what is not loading the store:"
echo "   opening their databases, the built-in translator's drafts)"
"$python" -c 'import json, sys; json.dump(json.load(open(sys.argv[1]))[:5], open(sys.argv[2], "w"))' \
  "$spider/dev.json" "$work/dev5.json"
echo "[]" >"$work/none.json"
"$bin" examples build --benchmark spider --questions "$work/none.json" --tables "$spider/tables.json" \
  --store "$work/empty.examples" >/dev/null
for s in store empty; do
  /usr/bin/time -v -o "$work/select_$s.time" "$bin" examples select --store "$work/$s.examples" --benchmark spider \
    --questions "$work/dev5.json" --tables "$spider/tables.json" --db-dir "$spider/database" -k 5 >"$work/select_$s.out"
done
head -6 "$work/select_store.out"
echo "select, the store:       $(timed "$work/select_store.time")"
echo "select, an empty store:  $(timed "$work/select_empty.time")"
