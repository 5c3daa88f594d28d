views $SAMPLE_DB --crosswalk $FIXTURES/plant_crosswalk.csv --level N4
