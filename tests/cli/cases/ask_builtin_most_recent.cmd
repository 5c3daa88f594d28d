ask $SAMPLE_DB "Show the 5 most recent maintenance orders" --llm none --descriptions $FIXTURES/../../../examples/plant_dictionary.csv
