sql "$SAMPLE_DB" "SELECT NULL AS n, x'00ff' AS b, 1.5 AS r, 'a|b' AS t"
