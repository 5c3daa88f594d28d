examples stats
