sql "$SAMPLE_DB"
