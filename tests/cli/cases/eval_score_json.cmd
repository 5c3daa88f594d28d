eval score --benchmark custom --questions $FIXTURES/plant_questions.jsonl --db-dir $(dirname $SAMPLE_DB) --predictions $FIXTURES/plant_predictions.sql --json
