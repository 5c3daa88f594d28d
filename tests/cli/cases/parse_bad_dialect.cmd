parse "SELECT 1" --to oracle
