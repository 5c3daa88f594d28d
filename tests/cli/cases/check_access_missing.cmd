check-access $FIXTURES/no_such.db
