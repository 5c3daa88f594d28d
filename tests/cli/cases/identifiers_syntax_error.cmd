identifiers "$SAMPLE_DB" "SELECT FROM"
