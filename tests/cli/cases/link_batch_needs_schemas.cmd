link --questions q.json --infer-keys
