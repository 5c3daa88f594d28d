parse "SELECT a FROM t WHERE b = = 1"
