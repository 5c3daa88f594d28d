examples stats --store /nonexistent/dir/train.examples
