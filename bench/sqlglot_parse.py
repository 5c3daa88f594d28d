#!/usr/bin/python3
"""Times sqlglot (Debian's python3-sqlglot) parsing and printing the Spider train gold queries, the reference point
of issue #3's speed bar. Run with Debian's /usr/bin/python3 after `apt-get install python3-sqlglot`.

Usage: sqlglot_parse.py [train_gold.sql]. Prints the median of 5 runs."""
import statistics
import sys
import time

import sqlglot

path = sys.argv[1] if len(sys.argv) > 1 else "../shared/data/spider/train_gold.sql"
queries = [line.split("\t")[0] for line in open(path, encoding="utf-8") if line.strip()]
times = []
failures = 0
for _ in range(5):
    start = time.perf_counter()
    failures = 0
    for q in queries:
        try:
            sqlglot.parse_one(q, read="sqlite").sql(dialect="sqlite")
        except Exception:  # noqa: BLE001 - a query sqlglot cannot parse is counted, not fatal
            failures += 1
    times.append(time.perf_counter() - start)
median = statistics.median(times)
print(f"sqlglot {sqlglot.__version__}: {len(queries)} queries, median {median:.3f} s "
      f"({len(queries) / median:.0f} queries/s), {failures} failed")
