views $SAMPLE_DB --crosswalk $FIXTURES/plant_colliding.csv --strict
