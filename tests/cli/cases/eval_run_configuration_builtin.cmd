eval run --benchmark custom --questions $FIXTURES/plant_questions.jsonl --db-dir $(dirname $SAMPLE_DB) --system builtin --configuration baseline --runs /nonexistent/dir/runs.db
