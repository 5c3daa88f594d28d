views $SAMPLE_DB --crosswalk $FIXTURES/plant_crosswalk.csv --extended --dialect postgres
