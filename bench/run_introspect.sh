#!/usr/bin/env bash
# Builds and runs the introspection benchmark on SQLite and on a throwaway PostgreSQL cluster.
#   bench/run_introspect.sh [BUILD_DIR]     (default build-release, a Release build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DPLAINSQL_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target introspect_bench
pgdir=$(mktemp -d /tmp/plainsql-bench-pg.XXXXXX)
trap 'bash tests/pg/pg_cluster.sh stop "$pgdir"' EXIT
bash tests/pg/pg_cluster.sh start "$pgdir"
PLAINSQL_BENCH_PG_URL=$(cat "$pgdir/url") "$build/bench/introspect_bench" --benchmark_report_aggregates_only=true
