schema "$SAMPLE_DB" --format prompt-ddl --samples 0 --no-cache --infer-keys
