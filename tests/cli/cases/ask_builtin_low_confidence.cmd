ask $SAMPLE_DB "How has the weather affected the experience at plants on rainy Mondays?" --llm none
