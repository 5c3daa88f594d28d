examples build --benchmark custom --questions $FIXTURES/examples_train.jsonl --store /nonexistent/dir/s.examples
