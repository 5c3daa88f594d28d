ask $SAMPLE_DB "Which technicians were hired in 2019 or later?" --llm none
