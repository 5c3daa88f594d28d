sql "$SAMPLE_DB" "SELECT plant_name, randomblob(4) FROM plant"
