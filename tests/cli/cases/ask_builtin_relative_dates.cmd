ask $SAMPLE_DB "How many maintenance orders were created in the last 30 days?" --llm none --descriptions $FIXTURES/../../../examples/plant_dictionary.csv
