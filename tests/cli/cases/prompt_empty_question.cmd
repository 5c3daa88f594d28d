prompt $SAMPLE_DB ""
