#!/usr/bin/env bash
# WWL distances over every pair of schemas in a tables.json (issue #17's speed bar): bench/wwl_bench side by side with
# the Python wwl package (BorgwardtLab/WWL, the WWL paper's own code) on the same graphs, run in turn RUNS times each
# under /usr/bin/time; prints each one's median wall seconds, the ratio and the largest difference between the two
# matrices.
#   bench/run_wwl.sh [BUILD_DIR] [TABLES_JSON] [RUNS]     defaults: build, ../shared/data/spider/tables.json, 5
#
# The wwl package: it is not in Debian, and `pip install wwl` needs PyPI. We used its source, unchanged: the MIT
# licensed repository https://github.com/BorgwardtLab/WWL at commit 107a8df, whose src/wwl/ is the package:
#   git clone https://github.com/BorgwardtLab/WWL /tmp/WWL && WWL_SRC=/tmp/WWL/src bench/run_wwl.sh build
# (or any folder holding wwl/; a pip-installed wwl is found too). It needs python3-numpy, python3-pot, python3-sklearn
# and python3-igraph; bench/wwl_package.py feeds it igraph graphs and works around one POT 0.8.2 / SciPy 1.10
# incompatibility (see there). Without the package the baseline is tests/examples/wwl_reference.py, and the output says
# so.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
tables=${2:-../shared/data/spider/tables.json}
runs=${3:-5}
bench="$build/bench/wwl_bench"
[ -x "$bench" ] || { echo "run_wwl: $bench not built (cmake --build $build --target wwl_bench)" >&2; exit 1; }
[ -f "$tables" ] || { echo "run_wwl: $tables not found" >&2; exit 1; }

python=""
for p in ${PLAINSQL_PYTHON:-} python3 /usr/bin/python3; do
  if "$p" -c 'import numpy, ot' >/dev/null 2>&1; then python=$p; break; fi
done
[ -n "$python" ] || { echo "run_wwl: no python3 with numpy and POT (python3-numpy python3-pot)" >&2; exit 1; }
export PYTHONPATH="${WWL_SRC:+$WWL_SRC:}${PYTHONPATH:-}"
if "$python" -c 'import wwl, igraph, sklearn' >/dev/null 2>&1; then
  baseline_name="the Python wwl package ($("$python" -c 'import wwl; print(wwl.__file__)'))"
  baseline=("$python" bench/wwl_package.py "$tables")
else
  baseline_name="tests/examples/wwl_reference.py (the wwl package was not found: set WWL_SRC, see the top of this script)"
  baseline=("$python" tests/examples/wwl_reference.py "$tables")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for ((i = 0; i < runs; i++)); do
  /usr/bin/time -f %e -a -o "$work/ours.s" "$bench" "$tables" >"$work/ours.json" 2>>"$work/ours.log"
  /usr/bin/time -f %e -a -o "$work/baseline.s" "${baseline[@]}" >"$work/baseline.json"
done

echo "machine: $(nproc) cores, $(date -u +%Y-%m-%d); $runs runs each, in turn"
echo "ours:     $bench $tables"
echo "baseline: $baseline_name"
"$python" - "$work" <<'EOF'
import json, statistics, sys
work = sys.argv[1]
median = lambda name: statistics.median(float(x) for x in open(f"{work}/{name}.s").read().split())
ours, base = median("ours"), median("baseline")
a = json.load(open(f"{work}/ours.json"))
b = json.load(open(f"{work}/baseline.json"))
assert a["dbs"] == b["dbs"], "the two programs list different databases"
n = len(a["dbs"])
worst = max(abs(x - y) for ra, rb in zip(a["distances"], b["distances"]) for x, y in zip(ra, rb))
print(f"{n} schemas, {n * (n - 1) // 2} pairs")
print(f"median wall seconds: ours {ours:.3f}, baseline {base:.3f}; baseline / ours = {base / ours:.1f}")
print(f"largest |difference| between the two matrices: {worst:.3g}")
EOF
echo "ours, last run: $(tail -1 "$work/ours.log")"
