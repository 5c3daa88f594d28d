space compare /nonexistent/a.jsonl /nonexistent/b.jsonl
