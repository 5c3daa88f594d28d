link $FIXTURES/empty.db "how many plants are there"
