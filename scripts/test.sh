#!/usr/bin/env bash
# Installs what plainsql needs, checks formatting, builds twice and runs every test once: in a build with
# AddressSanitizer + UndefinedBehaviorSanitizer, except those labelled `slow` (the whole-benchmark data sweeps, which run
# the same code over thousands more inputs) and `extension` (the PostgreSQL extension: a server cannot load a module
# built with the sanitizers), which run in the optimized build. The script checks that no test is left out of both.
# PostgreSQL tests start their own throwaway cluster.
# Options (environment): PLAINSQL_SKIP_SANITIZE=1 skips the sanitizer pass (every test then runs optimized);
# PLAINSQL_SKIP_TIDY=1 skips clang-tidy.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)
# Both builds compile in unity batches (PLAINSQL_UNITY, about half the compile time) and link with lld (a fifth of the
# link time of ld.bfd for the many test programs). Each phase prints its duration.
fast_build=(-DPLAINSQL_UNITY=ON)
if command -v ld.lld >/dev/null; then
  fast_build+=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld)
fi
phase_start=$SECONDS
phase_done() { echo "== $1: $((SECONDS - phase_start)) s"; phase_start=$SECONDS; }

echo "== style: clang-format"
bash scripts/check-style.sh format

# The tests the optimized build runs when the sanitizer pass runs the rest (ctest's label expression).
optimized_only='slow|extension'
sanitize=1
[ "${PLAINSQL_SKIP_SANITIZE:-0}" = 1 ] && sanitize=0
test_names() { ctest --test-dir "$1" -N "${@:2}" | sed -n 's/^ *Test *#[0-9]*: //p' | LC_ALL=C sort; }

# The first pass is optimized like RelWithDebInfo but without debug information: a fifth less compile time and much
# faster links; the sanitizer pass keeps it for its stack traces.
# When the sanitizer pass runs, this build compiles only the test programs whose tests it runs (labelled slow).
echo "== build and test (-O2, no debug information)"
fast_tests=ON
[ "$sanitize" = 1 ] && fast_tests=OFF
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" \
  -DPLAINSQL_BUILD_TESTS=ON -DPLAINSQL_BUILD_FAST_TESTS=$fast_tests -DPLAINSQL_BUILD_BENCH=ON "${fast_build[@]}" >/dev/null
cmake --build build -j"$jobs"
phase_done "build"
if [ "$sanitize" = 1 ]; then
  ctest --test-dir build -j"$jobs" --output-on-failure --timeout 600 --no-tests=error -L "$optimized_only"
else
  ctest --test-dir build -j"$jobs" --output-on-failure --timeout 600 --no-tests=error
fi
phase_done "tests"

if [ "${PLAINSQL_SKIP_TIDY:-0}" != 1 ]; then
  echo "== style: clang-tidy"
  bash scripts/check-style.sh tidy build
  phase_done "clang-tidy"
fi

if [ "$sanitize" = 1 ]; then
  echo "== build and test (AddressSanitizer + UndefinedBehaviorSanitizer)"
  # Debug information as line tables only (-g1): the sanitizers' stack traces keep their files, lines and functions,
  # and the build compiles about a fifth faster than with full -g (one unity batch here: 17.5 s -> 13.4 s). The test
  # programs whose tests are all `slow` are not built: their tests run in the optimized build.
  # Compiled with clang: it builds this pass in about two thirds of GCC's time (docs/BENCHMARKS.md, CI run time, sixth
  # step), and the code is then checked by both compilers' warnings (GCC's in the optimized build).
  cmake -S . -B build-asan -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1 \
    -DPLAINSQL_SANITIZE=ON -DPLAINSQL_BUILD_TESTS=ON -DPLAINSQL_BUILD_SLOW_TESTS=OFF -DPLAINSQL_BUILD_BENCH=OFF \
    "${fast_build[@]}" >/dev/null
  cmake --build build-asan -j"$jobs"
  phase_done "sanitizer build"
  # Every test runs in one of the two passes: a test of the optimized build that the sanitizer build lacks must carry
  # one of the optimized-only labels. (A test program is in exactly one of the builds by its labels: PLAINSQL_BUILD_
  # SLOW_TESTS and PLAINSQL_BUILD_FAST_TESTS; this catches the tests added one by one.)
  missed=$(comm -23 <(test_names build -LE "$optimized_only") <(test_names build-asan))
  if [ -n "$missed" ]; then
    echo "tests in neither pass (not in the sanitizer build, not labelled ${optimized_only//|/ or }):" >&2
    echo "$missed" >&2
    exit 1
  fi
  # intercept_memmem=0: ASan's memmem wrapper checks the whole haystack on every call, which makes the linear
  # replace() of src/exec/sqlite_connection.cpp quadratic in the sanitizer build only.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:intercept_memmem=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan -j"$jobs" --output-on-failure --timeout 600 --no-tests=error -LE "$optimized_only"
  phase_done "sanitizer tests"
fi
