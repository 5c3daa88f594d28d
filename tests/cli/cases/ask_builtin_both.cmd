ask $SAMPLE_DB "Which countries have both plants in Toledo and Savannah?" --llm none
