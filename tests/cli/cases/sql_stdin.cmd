sql "$SAMPLE_DB" - --format csv
