eval subsets --benchmark custom --questions $FIXTURES/plant_questions.jsonl --db-dir $(dirname $SAMPLE_DB) --subsets $FIXTURES/plant_subsets_bad.jsonl
