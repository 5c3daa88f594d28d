ask $SAMPLE_DB "How many plants are there?" --llm http://127.0.0.1:9/v1 --model m
