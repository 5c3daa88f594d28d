ask $SAMPLE_DB "Which technicians were hired after 2020?" --llm none
