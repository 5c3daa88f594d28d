#!/usr/bin/env bash
# The README's natural-views walk-through on a copy of the sample database: rename (with the sample's data
# dictionary), deploy the N1 views into a companion database, profile them (combined naturalness must reach 0.9),
# rerun rename (the file is kept as it is), drop the views.
#   walkthrough.sh PLAINSQL SAMPLE_DB SOURCE_DIR
set -euo pipefail
bin=$1 sample=$2 src=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$sample" "$work/plant.db"
cd "$work"
"$bin" rename plant.db --dictionary "$src/examples/plant_dictionary.csv" -o plant_crosswalk.csv
"$bin" views plant.db --crosswalk plant_crosswalk.csv --apply --companion plant_nl.db
before=$("$bin" profile plant.db --format json | sed -n 's/.*"combined": *\([0-9.]*\).*/\1/p' | head -n 1)
after=$("$bin" profile plant_nl.db --format json | sed -n 's/.*"combined": *\([0-9.]*\).*/\1/p' | head -n 1)
echo "combined naturalness: native $before, natural views $after"
awk -v a="$after" 'BEGIN { exit !(a >= 0.9) }' || { echo "FAIL: below 0.9" >&2; exit 1; }
"$bin" sql plant_nl.db "SELECT maintenance_order_status, count(*) FROM maintenance_order GROUP BY 1"
cp plant_crosswalk.csv first.csv
"$bin" rename plant.db --dictionary "$src/examples/plant_dictionary.csv" -o plant_crosswalk.csv
cmp first.csv plant_crosswalk.csv
"$bin" views plant.db --drop --companion plant_nl.db
[ ! -e plant_nl.db ] || { echo "FAIL: companion not removed" >&2; exit 1; }
echo "walkthrough ok"
