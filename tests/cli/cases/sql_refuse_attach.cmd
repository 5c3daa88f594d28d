sql "$SAMPLE_DB" "ATTACH DATABASE '/tmp/x.db' AS x"
