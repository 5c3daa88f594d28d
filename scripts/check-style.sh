#!/usr/bin/env bash
# Style checks with the committed configurations (.clang-format, .clang-tidy).
#   check-style.sh format        fail if any C++ file is not clang-formatted (fix with: check-style.sh fix)
#   check-style.sh fix           reformat every C++ file in place
#   check-style.sh tidy BUILD    run clang-tidy on every library and program source, using BUILD's compile database
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
    build=${2:-build}
    mapfile -t sources < <(git ls-files 'src/*.cpp' 'tools/*.cpp')
    printf '%s\n' "${sources[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$build" --quiet --extra-arg=-Wno-unknown-warning-option --warnings-as-errors='*' \
      2> >(grep -v -E '^[0-9]+ warnings? generated|^Suppressed|^Use -header-filter|^$' >&2)
    echo "clang-tidy: ${#sources[@]} files clean"
    ;;
  *)
    echo "usage: check-style.sh format|fix|tidy [BUILD]" >&2
    exit 2
    ;;
esac
