#!/usr/bin/env bash
# Style checks with the committed configurations (.clang-format, .clang-tidy).
#   check-style.sh format        fail if any C++ file is not clang-formatted (fix with: check-style.sh fix)
#   check-style.sh fix           reformat every C++ file in place
#   check-style.sh tidy BUILD    run clang-tidy on every library and program source of BUILD's compile database
#                                (in its unity batches when it has them)
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
    # clang-tidy over the build's compile database. A unity build (the default) is checked batch by batch: the headers
    # every source includes are parsed and matched once per batch instead of once per source (about half the time),
    # and diagnostics are reported for the sources the batch includes (src/ and tools/, not generated files). A build
    # configured with PLAINSQL_UNITY=OFF is checked one source at a time.
    build="${2:-build}"
    [ -f "$build/compile_commands.json" ] || { echo "no $build/compile_commands.json: configure the build first" >&2; exit 2; }
    root="$(pwd)"
    mapfile -t units < <(python3 - "$build" "$root" <<'PY'
import json, os, sys
build, root = os.path.abspath(sys.argv[1]), sys.argv[2]
for e in json.load(open(os.path.join(build, "compile_commands.json"))):
    f = e["file"]
    if "/Unity/" in f:
        if os.path.relpath(e["directory"], build).split(os.sep)[0] in ("src", "tools"):
            print(f)
    elif f.startswith(root + "/src/") or f.startswith(root + "/tools/"):
        print(f)
PY
)
    [ "${#units[@]}" -gt 0 ] || { echo "no src/ or tools/ sources in $build/compile_commands.json" >&2; exit 2; }
    printf '%s\n' "${units[@]}" | xargs -P "$(nproc)" -n 1 clang-tidy -p "$build" --quiet \
      --extra-arg=-Wno-unknown-warning-option --warnings-as-errors='*' --checks=-bugprone-suspicious-include \
      --header-filter="^$root/(src|tools)/.*\.cpp\$" \
      2> >(grep -v -E '^[0-9]+ warnings? generated|^Suppressed|^Use -header-filter|^$' >&2)
    echo "clang-tidy: ${#units[@]} compile units of $build clean"
    ;;
  *)
    echo "usage: check-style.sh format|fix|tidy [BUILD]" >&2
    exit 2
    ;;
esac
