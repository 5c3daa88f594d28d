ask $SAMPLE_DB "Which plants opened before 2000?" --llm none
