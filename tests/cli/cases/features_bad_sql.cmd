features $SAMPLE_DB "How many plants?" --sql "SELECT count(* FROM plant"
