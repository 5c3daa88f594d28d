ask $SAMPLE_DB "Which technicians were hired in November 2018?" --llm none
