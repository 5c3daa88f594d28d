ask $SAMPLE_DB "Which technician confirmed the most hours?" --llm none --descriptions $FIXTURES/../../../examples/plant_dictionary.csv
