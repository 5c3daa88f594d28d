ask $SAMPLE_DB "How many plants are there?" --llm none --infer-keys=sometimes
