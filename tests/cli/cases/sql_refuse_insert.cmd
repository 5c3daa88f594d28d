sql "$SAMPLE_DB" "INSERT INTO plant VALUES (7, 'x', 'y', 'z', 2000)"
