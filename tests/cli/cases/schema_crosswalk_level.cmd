schema $SAMPLE_DB --crosswalk $FIXTURES/plant_natural.csv --level N3 --format list
