ask $SAMPLE_DB "How many workers are there?" --llm none
