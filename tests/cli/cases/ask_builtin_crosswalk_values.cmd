ask $SAMPLE_DB "Which plants are in Poland?" --crosswalk $FIXTURES/plant_natural.csv --level N2
