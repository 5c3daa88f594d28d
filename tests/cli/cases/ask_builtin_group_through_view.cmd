ask $SAMPLE_DB "How many maintenance orders per priority?" --llm none --descriptions $FIXTURES/../../../examples/plant_dictionary.csv
