schema "$SAMPLE_DB" --format prompt-ddl --samples 2
