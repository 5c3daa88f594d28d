examples distances --tables $FIXTURES/examples_tables.json --db zoo --db shop
