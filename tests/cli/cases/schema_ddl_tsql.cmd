schema "$SAMPLE_DB" --format ddl --dialect tsql --no-cache
