sql "$SAMPLE_DB" "WITH x AS (SELECT name, sql FROM sqlite_master) SELECT * FROM x"
