parse "DELETE FROM t"
