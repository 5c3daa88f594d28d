views $SAMPLE_DB --crosswalk $FIXTURES/plant_crosswalk.csv --apply --drop
