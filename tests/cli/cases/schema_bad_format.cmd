schema "$SAMPLE_DB" --format yaml
