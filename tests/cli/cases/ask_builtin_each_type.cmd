ask $SAMPLE_DB "How many orders of each type are there?" --llm none
