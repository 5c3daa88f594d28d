schema "$SAMPLE_DB" --infer-keys=maybe
