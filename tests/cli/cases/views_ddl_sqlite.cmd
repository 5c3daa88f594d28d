views $SAMPLE_DB --crosswalk $FIXTURES/plant_natural.csv --level N2
