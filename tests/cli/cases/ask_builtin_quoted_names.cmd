ask $SAMPLE_DB "Show the \"hire date\" and the 'first name' of each technician" --llm none
