schema --tables "$FIXTURES/tables.json" --db nope
