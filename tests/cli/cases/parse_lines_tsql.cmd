parse --lines --to tsql
