ask $SAMPLE_DB "Which plant has the most technicians?" --llm none --infer-keys=replace
