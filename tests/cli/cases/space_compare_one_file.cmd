space compare one.jsonl
