sql "$SAMPLE_DB" "SELECT part_no, part_name, \"Group\", unit_cost FROM spare_part ORDER BY part_no LIMIT 5" --format csv
