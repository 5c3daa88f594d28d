schema "$FIXTURES/tables.json"
