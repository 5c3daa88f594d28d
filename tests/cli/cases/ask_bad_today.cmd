ask $SAMPLE_DB "How many plants are there?" --llm none
