examples distances --tables $FIXTURES/examples_tables.json --json
