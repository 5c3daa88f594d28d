schema "$SAMPLE_DB" --tokens
