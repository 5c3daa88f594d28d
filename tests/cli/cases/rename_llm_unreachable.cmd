rename $SAMPLE_DB -o /nonexistent/plainsql_crosswalk.csv --llm http://127.0.0.1:9/v1 --model m
