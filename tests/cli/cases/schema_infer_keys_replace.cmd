schema "$SAMPLE_DB" --format list --no-cache --infer-keys=replace
