ask $SAMPLE_DB "Which plants have no technicians?" --llm none
