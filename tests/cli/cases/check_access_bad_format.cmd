check-access $SAMPLE_DB --format xml
