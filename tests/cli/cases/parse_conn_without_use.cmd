parse --conn $SAMPLE_DB 'SELECT 1'
