examples add --store /nonexistent/dir/s.examples $SAMPLE_DB "Which gadgets are there?" "SELECT gadget FROM plant"
