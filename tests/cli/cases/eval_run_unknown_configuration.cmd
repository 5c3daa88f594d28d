eval run --benchmark custom --questions $FIXTURES/plant_questions.jsonl --db-dir $(dirname $SAMPLE_DB) --system pipeline --configuration fancy --runs /nonexistent/dir/runs.db
