runs --runs /nonexistent-dir/runs.db list
