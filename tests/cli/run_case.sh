#!/usr/bin/env bash
# Runs one end-to-end CLI case and compares it with its golden files.
#   run_case.sh PLAINSQL SAMPLE_DB CASE.cmd
# CASE.cmd holds the arguments on one line, in shell syntax; $SAMPLE_DB and $FIXTURES expand. Optional files beside it:
#   CASE.stdin  standard input (default: none)
#   CASE.env    environment variables for the run, NAME=value a line (PLAINSQL_TODAY=2024-12-10)
#   CASE.out    expected standard output
#   CASE.err    expected standard error
#   CASE.code   expected exit code (default 0)
# Paths of the sample database and fixtures are written as $SAMPLE_DB and $FIXTURES in the golden files.
# With UPDATE_GOLDEN=1 the golden files are (re)written from the actual run instead of compared.
set -u
bin=$1 sample_db=$2 case=$3
dir=$(dirname "$case")
name=$(basename "$case" .cmd)
export SAMPLE_DB=$sample_db
export FIXTURES
FIXTURES=$(cd "$dir/../fixtures" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

stdin=/dev/null
[ -f "$dir/$name.stdin" ] && stdin="$dir/$name.stdin"
eval "set -- $(cat "$case")"
env_vars=()
if [ -f "$dir/$name.env" ]; then mapfile -t env_vars <"$dir/$name.env"; fi
env "${env_vars[@]}" "$bin" "$@" <"$stdin" >"$work/out" 2>"$work/err"
code=$?

# Make outputs independent of where the build and the source tree are.
for f in out err; do
  sed -e "s|$SAMPLE_DB|\$SAMPLE_DB|g" -e "s|$FIXTURES|\$FIXTURES|g" "$work/$f" >"$work/$f.norm"
done

if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
  cp "$work/out.norm" "$dir/$name.out"
  if [ -s "$work/err.norm" ]; then cp "$work/err.norm" "$dir/$name.err"; else rm -f "$dir/$name.err"; fi
  if [ "$code" -ne 0 ]; then echo "$code" >"$dir/$name.code"; else rm -f "$dir/$name.code"; fi
  echo "updated $name (exit $code)"
  exit 0
fi

status=0
want_code=0
[ -f "$dir/$name.code" ] && want_code=$(cat "$dir/$name.code")
if [ "$code" != "$want_code" ]; then
  echo "exit code: got $code, want $want_code"
  status=1
fi
if [ -f "$dir/$name.out" ] && ! diff -u "$dir/$name.out" "$work/out.norm"; then
  echo "standard output differs from $name.out"
  status=1
fi
if [ -f "$dir/$name.err" ]; then
  if ! diff -u "$dir/$name.err" "$work/err.norm"; then echo "standard error differs from $name.err"; status=1; fi
elif [ -s "$work/err.norm" ]; then
  echo "unexpected standard error:"; cat "$work/err.norm"; status=1
fi
# A failure is reported as one clear line (a syntax error adds the source line and a caret): no stack dumps.
if [ "$code" -ne 0 ]; then
  if [ "$(grep -c '' "$work/err.norm")" -gt 4 ] || ! head -n 1 "$work/err.norm" | grep -q '^plainsql: error: '; then
    echo "an error should be one 'plainsql: error: ...' line (plus an excerpt for syntax errors):"
    cat "$work/err.norm"; status=1
  fi
fi
exit $status
