features $SAMPLE_DB -
