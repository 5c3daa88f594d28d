ask $SAMPLE_DB "  "
