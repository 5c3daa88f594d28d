schema --tables "$FIXTURES/tables.json"
