prompt $SAMPLE_DB "How many plants are there?" --style snails_zero_shot
