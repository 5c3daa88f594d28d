#!/usr/bin/env bash
# Style checks with the committed configurations (.clang-format, .clang-tidy).
#   check-style.sh format        fail if any C++ file is not clang-formatted (fix with: check-style.sh fix)
#   check-style.sh fix           reformat every C++ file in place
#   check-style.sh tidy BUILD    run clang-tidy on every library and program source, each on its own (compile
#                                database: BUILD-tidy, configured without unity batches)
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.c' '*.cpp' '*.h' '*.h.in' | grep -v '\.in$')
case "${1:-format}" in
  format)
    clang-format --dry-run -Werror "${files[@]}"
    echo "clang-format: ${#files[@]} files clean"
    ;;
  fix)
    clang-format -i "${files[@]}"
    ;;
  tidy)
    # Every source is checked on its own: with a compile database configured (not built) without unity batches, which
    # also catches a source that compiles in a batch only thanks to another's includes.
    tidy_db="${2:-build}-tidy"
    cmake -S . -B "$tidy_db" -DPLAINSQL_UNITY=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPLAINSQL_BUILD_TESTS=ON \
      -DPLAINSQL_BUILD_BENCH=ON >/dev/null
    mapfile -t sources < <(git ls-files 'src/*.cpp' 'tools/*.cpp')
    printf '%s\n' "${sources[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$tidy_db" --quiet --extra-arg=-Wno-unknown-warning-option --warnings-as-errors='*' \
      2> >(grep -v -E '^[0-9]+ warnings? generated|^Suppressed|^Use -header-filter|^$' >&2)
    echo "clang-tidy: ${#sources[@]} files clean"
    ;;
  *)
    echo "usage: check-style.sh format|fix|tidy [BUILD]" >&2
    exit 2
    ;;
esac
