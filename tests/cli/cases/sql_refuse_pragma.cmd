sql "$SAMPLE_DB" "PRAGMA writable_schema = ON"
