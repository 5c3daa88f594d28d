ask $SAMPLE_DB "How many maintenance orders were created in each month?" --llm none --descriptions $FIXTURES/../../../examples/plant_dictionary.csv
