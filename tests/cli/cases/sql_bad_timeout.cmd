sql "$SAMPLE_DB" "SELECT 1" --timeout 0
