schema "$SAMPLE_DB" --format ddl --dialect postgres --no-cache
