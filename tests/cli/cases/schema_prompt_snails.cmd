schema "$SAMPLE_DB" --format prompt-snails
