ask $SAMPLE_DB "What is the meaning of life?"
