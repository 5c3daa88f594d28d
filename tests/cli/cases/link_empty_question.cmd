link $SAMPLE_DB
