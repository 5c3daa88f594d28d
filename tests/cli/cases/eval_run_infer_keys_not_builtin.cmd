eval run --questions "$FIXTURES/plant_questions.jsonl" --benchmark custom --db-dir /nonexistent --system pipeline --infer-keys --runs /dev/null
