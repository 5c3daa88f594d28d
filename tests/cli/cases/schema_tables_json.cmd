schema --tables "$FIXTURES/tables.json" --db shop --format ddl
