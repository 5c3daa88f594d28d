examples add --store /nonexistent/dir/s.examples $SAMPLE_DB "Remove every plant" "DELETE FROM plant"
