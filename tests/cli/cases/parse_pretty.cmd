parse "SELECT a, count(*) FROM t JOIN u ON t.id = u.id WHERE a IN (SELECT b FROM v) GROUP BY a ORDER BY 2 DESC LIMIT 5" --pretty
