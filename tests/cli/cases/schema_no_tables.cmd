schema --tables $FIXTURES/empty_tables.json --db nothing
