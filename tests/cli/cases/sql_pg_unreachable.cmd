sql "postgresql://u:secret@127.0.0.1:1/db?connect_timeout=2" "SELECT 1"
