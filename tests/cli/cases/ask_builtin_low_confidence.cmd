ask $SAMPLE_DB "What weather did the plants experience on rainy Mondays?" --llm none
