views $SAMPLE_DB --crosswalk $FIXTURES/plant_natural.csv --apply --drop
