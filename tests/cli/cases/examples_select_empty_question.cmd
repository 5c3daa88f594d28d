examples select --store $FIXTURES/none.db $SAMPLE_DB " "
