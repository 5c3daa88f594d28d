rename $SAMPLE_DB -o /nonexistent/plainsql_crosswalk.csv --llm localhost:11434
