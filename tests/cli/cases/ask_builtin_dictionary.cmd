ask $SAMPLE_DB "How many maintenance orders are still open?" --llm none --descriptions $FIXTURES/../../../examples/plant_dictionary.csv
