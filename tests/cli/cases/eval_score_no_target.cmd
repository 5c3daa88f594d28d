eval score --questions $FIXTURES/plant_questions.jsonl --benchmark custom --predictions $FIXTURES/plant_predictions.sql
