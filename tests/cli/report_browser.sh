#!/usr/bin/env bash
# The HTML report opens in headless Chromium with no console message at all (the report has no script, so any message
# is an error: a malformed SVG attribute, a blocked resource, …), and its charts are drawn: a screenshot is taken and
# the bar colours of the first and the second run must cover the areas the charts take. Two controls prove the checks
# can fail: a page with a script error must be caught, and the same report with its SVG bars removed must fail the
# pixel check.
#   report_browser.sh PLAINSQL SAMPLE_DB PNG_PIXELS
# Exit 77 (skipped) when Chromium is absent, except under CI=true where it is a failure.
set -euo pipefail
bin=$1 sample=$2 png_pixels=$3
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  if [ "${CI:-}" = true ]; then echo "FAIL: chromium is not installed" >&2; exit 1; fi
  echo "chromium is not installed: skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$sample" "$work/plant.db"
cd "$work"

# Two runs over the same 40 questions: run "a" answers three in four right, run "b" all of them.
i=0
while IFS= read -r sql; do
  i=$((i + 1))
  printf '{"question": "q%s", "sql": "%s", "db_id": "plant"}\n' "$i" "$sql" >> questions.jsonl
  echo "$sql" >> b.sql
  if [ $((i % 4)) -eq 0 ]; then echo "SELECT 1" >> a.sql; else echo "$sql" >> a.sql; fi
done < <(for k in $(seq 1 10); do
  echo "SELECT count(*) FROM TB_MO WHERE MO_ID > $k"
  echo "SELECT MO_ST, count(*) FROM TB_MO GROUP BY MO_ST"
  echo "SELECT last_name FROM technician ORDER BY last_name LIMIT $k"
  echo "SELECT e.EQ_DESC, count(*) FROM TB_EQUIP AS e JOIN TB_MO AS m ON m.EQ_ID = e.EQ_ID GROUP BY e.EQ_DESC"
done)
"$bin" eval run --benchmark custom --questions questions.jsonl --db-dir . --system predictions:a.sql --runs runs.db \
  --name a > /dev/null
"$bin" eval run --benchmark custom --questions questions.jsonl --db-dir . --system predictions:b.sql --runs runs.db \
  --name b > /dev/null
"$bin" runs --runs runs.db report a --vs b -o report.html > /dev/null

shoot() {  # shoot PAGE PNG: screenshot of a local page; Chromium's log (console messages included) in PNG.log
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$work/profile-$2" \
    --enable-logging=stderr --v=0 --window-size=1200,2600 --screenshot="$work/$2" "file://$work/$1" 2> "$work/$2.log" \
    > /dev/null
  [ -s "$work/$2" ] || { echo "FAIL: no screenshot of $1" >&2; cat "$work/$2.log" >&2; exit 1; }
}
console() { grep -F ':CONSOLE' "$1" || true; }
pixels() { "$png_pixels" "$1" "$2" | awk '{print $2}'; }

shoot report.html report.png
messages=$(console report.png.log)
[ -z "$messages" ] || { echo "FAIL: console messages from the report:" >&2; echo "$messages" >&2; exit 1; }
# The charts: by difficulty, by naturalness (both runs' colours) and two latency histograms (the first colour). The
# legend's two 12×12 squares alone give 144 pixels of each colour.
blue=$(pixels report.png 3b6ea5)
orange=$(pixels report.png d9822b)
echo "report: $blue pixels of the first run's colour, $orange of the second's"
[ "$blue" -gt 5000 ] && [ "$orange" -gt 2000 ] || { echo "FAIL: the charts are not drawn" >&2; exit 1; }

# Control 1: a script error is seen.
printf '<!DOCTYPE html><html><body><script>no_such_function();</script></body></html>\n' > broken.html
shoot broken.html broken.png
console broken.png.log | grep -q no_such_function || { echo "FAIL: the console check misses a script error" >&2; exit 1; }
# Control 2: without the bars, the pixel check fails.
sed 's/<rect [^>]*>//g' report.html > bare.html
shoot bare.html bare.png
bare_blue=$(pixels bare.png 3b6ea5)
[ "$bare_blue" -le 5000 ] || { echo "FAIL: the pixel check passes a report without bars ($bare_blue)" >&2; exit 1; }
grep -q "EX strict by naturalness" report.html || { echo "FAIL: no naturalness section" >&2; exit 1; }
echo "report ok in $("$chromium" --version 2>/dev/null | head -1)"
