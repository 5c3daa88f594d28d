ask $SAMPLE_DB "Which technicians were hired after 5 June 2019?" --llm none
