schema "$SAMPLE_DB" --schema sales
