ask $SAMPLE_DB "Show plant_name, city of plants" --llm none
