schema "$SAMPLE_DB" --dialect oracle
