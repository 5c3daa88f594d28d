builtin train --questions none.json --db-dir none --c 0
