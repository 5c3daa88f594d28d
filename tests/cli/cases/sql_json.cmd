sql "$SAMPLE_DB" "SELECT MO_ID, \"Reported By\", CMPL_DT, EST_HRS FROM TB_MO WHERE MO_ID IN (1, 2) ORDER BY MO_ID" --format json
