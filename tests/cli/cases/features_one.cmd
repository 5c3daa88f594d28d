features $SAMPLE_DB "Which plants are not in Poland?" --sql "SELECT plant_name FROM plant WHERE country != 'Poland'"
