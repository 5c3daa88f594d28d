examples build --benchmark snails --questions $FIXTURES/examples_train.jsonl --tables $FIXTURES/tables.json --store /nonexistent/dir/s.examples
