eval run --questions $FIXTURES/plant_questions.jsonl --benchmark custom --db-dir $(dirname $SAMPLE_DB) --system llm:gpt
