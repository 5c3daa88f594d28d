rename $SAMPLE_DB -o none.csv --agreement -1
