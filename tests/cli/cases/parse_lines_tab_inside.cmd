parse --lines
