schema --tables "$FIXTURES/tables.json" --db shop --infer-keys
