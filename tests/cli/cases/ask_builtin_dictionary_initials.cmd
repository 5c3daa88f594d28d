ask $SAMPLE_DB "How many maintenance orders are there?" --llm none --descriptions $FIXTURES/../../../examples/plant_dictionary.csv
