# Sourced by the scripts that run `plainsql serve` (tests/cli/serve.sh, tests/server/fuzz.sh, tests/web/browser.sh,
# bench/serve_load.sh): start_serve LOG PLAINSQL SERVE_ARGS... starts the server in the background on a free loopback
# port and sets SERVE_PID and SERVE_PORT once it listens (the port is read from its log); it fails, showing the log,
# when the server does not listen within ten seconds.
start_serve() {
  local log=$1
  shift
  if [ ! -d "$(dirname "$log")" ]; then
    echo "FAIL: the directory of the server's log ($(dirname "$log")) does not exist (removed by something else?)" >&2
    return 1
  fi
  "$@" 2> "$log" &
  SERVE_PID=$!
  SERVE_PORT=""
  for _ in $(seq 1 200); do
    SERVE_PORT=$(sed -n 's#.*listening on http://127.0.0.1:\([0-9]*\)/.*#\1#p' "$log")
    [ -n "$SERVE_PORT" ] && return 0
    kill -0 "$SERVE_PID" 2> /dev/null || break
    sleep 0.05
  done
  cat "$log" >&2
  echo "FAIL: plainsql serve did not start" >&2
  return 1
}
