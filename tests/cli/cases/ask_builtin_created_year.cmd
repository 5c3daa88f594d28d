ask $SAMPLE_DB "How many maintenance orders were created in 2023?" --llm none --descriptions $FIXTURES/../../../examples/plant_dictionary.csv
