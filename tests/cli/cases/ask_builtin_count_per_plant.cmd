ask $SAMPLE_DB "How many pieces of equipment does each plant have?" --llm none
