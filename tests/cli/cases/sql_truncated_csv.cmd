sql "$SAMPLE_DB" "SELECT MO_ID FROM TB_MO ORDER BY MO_ID" --max-rows 3 --format csv
