link $SAMPLE_DB "oldest plant" --threshold 2
