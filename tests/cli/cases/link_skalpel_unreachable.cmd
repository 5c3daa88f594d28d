link $SAMPLE_DB "How many plants are there?" --method skalpel --llm http://127.0.0.1:9/v1 --model m
