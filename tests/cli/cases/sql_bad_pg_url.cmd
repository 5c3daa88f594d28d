sql "postgresql://u@h/db?nonsense=1" "SELECT 1"
