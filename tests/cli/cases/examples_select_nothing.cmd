examples select --store /nonexistent/dir/s.examples
