identifiers "$SAMPLE_DB" "SELECT p.plant_name, count(*) FROM TB_MO m JOIN TB_EQUIP e ON e.EQ_ID = m.EQ_ID JOIN plant p ON p.plant_id = e.PLNT_ID WHERE m.MO_STATUS = 1 GROUP BY 1"
