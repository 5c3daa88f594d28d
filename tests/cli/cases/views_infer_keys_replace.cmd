views $SAMPLE_DB --crosswalk $FIXTURES/plant_natural.csv --extended --dialect postgres --infer-keys=replace
