runs show some-run --runs /nonexistent-dir/runs.db
