# Sourced by the scripts that run `plainsql serve` (tests/cli/serve.sh, tests/server/fuzz.sh, tests/web/browser.sh,
# bench/serve_load.sh): start_serve LOG PLAINSQL SERVE_ARGS... starts the server in the background on a free loopback
# port and sets SERVE_PID and SERVE_PORT once it listens (the port is read from its log); it fails, showing the log,
# when the server does not listen within ten seconds, and then stops it. Its output and errors both go to the log: a
# server left running must not hold the test's output open.
start_serve() {
  local log=$1
  shift
  if [ ! -d "$(dirname "$log")" ]; then
    echo "FAIL: the directory of the server's log ($(dirname "$log")) does not exist (removed by something else?)" >&2
    return 1
  fi
  # The log is made before the server starts: the background job opens it only when it is scheduled, and a read of a
  # missing log (sed fails) under the callers' `set -e` ended a CI run with the server still running.
  : > "$log"
  "$@" > "$log" 2>&1 &
  SERVE_PID=$!
  SERVE_PORT=""
  for _ in $(seq 1 200); do
    SERVE_PORT=$(sed -n 's#.*listening on http://127.0.0.1:\([0-9]*\)/.*#\1#p' "$log" || true)
    [ -n "$SERVE_PORT" ] && return 0
    kill -0 "$SERVE_PID" 2> /dev/null || break
    sleep 0.05
  done
  kill "$SERVE_PID" 2> /dev/null || true
  cat "$log" >&2
  echo "FAIL: plainsql serve did not start" >&2
  return 1
}
