sql "$SAMPLE_DB" "SELECT 1" --max-rows abc
