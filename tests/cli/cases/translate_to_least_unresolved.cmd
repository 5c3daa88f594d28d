translate $SAMPLE_DB --crosswalk $FIXTURES/plant_natural.csv --from native --to N3 "SELECT e.EQ_DESC, m.MO_ST FROM TB_MO AS m JOIN TB_EQUIP AS e USING (EQ_ID) WHERE m.nope = 1"
