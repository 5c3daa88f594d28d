ask $SAMPLE_DB "How many maintenance orders are there?" --crosswalk $FIXTURES/plant_colliding.csv
