#!/usr/bin/env bash
# Installs what plainsql needs, checks formatting, builds, and runs the tests twice: every test in a normal build, and
# all but those labelled `slow` (the whole-benchmark data sweeps, which run the same code over thousands more inputs)
# in a build with AddressSanitizer + UndefinedBehaviorSanitizer, to keep CI well inside its time. PostgreSQL tests
# start their own throwaway cluster.
# Options (environment): PLAINSQL_SKIP_SANITIZE=1 skips the sanitizer pass; PLAINSQL_SKIP_TIDY=1 skips clang-tidy.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)

echo "== style: clang-format"
bash scripts/check-style.sh format

echo "== build and test (RelWithDebInfo)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPLAINSQL_BUILD_TESTS=ON -DPLAINSQL_BUILD_BENCH=ON >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build -j"$jobs" --output-on-failure --timeout 600 --no-tests=error

if [ "${PLAINSQL_SKIP_TIDY:-0}" != 1 ]; then
  echo "== style: clang-tidy"
  bash scripts/check-style.sh tidy build
fi

if [ "${PLAINSQL_SKIP_SANITIZE:-0}" != 1 ]; then
  echo "== build and test (AddressSanitizer + UndefinedBehaviorSanitizer)"
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPLAINSQL_SANITIZE=ON -DPLAINSQL_BUILD_TESTS=ON -DPLAINSQL_BUILD_BENCH=OFF >/dev/null
  cmake --build build-asan -j"$jobs"
  # intercept_memmem=0: ASan's memmem wrapper checks the whole haystack on every call, which makes the linear
  # replace() of src/exec/sqlite_connection.cpp quadratic in the sanitizer build only.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:intercept_memmem=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan -j"$jobs" --output-on-failure --timeout 600 --no-tests=error -LE slow
fi
