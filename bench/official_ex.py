#!/usr/bin/env python3
"""Baseline for the `eval score` speed bar: a plain Python implementation of the Spider test-suite execution
comparison (EX only: run gold and prediction on SQLite, compare the denotations by the official rules).

Written for this benchmark from the rules the official evaluator documents; no code of it is copied.
  official_ex.py QUESTIONS.json DB_DIR PREDICTIONS.sql     prints "EX a/b" and the elapsed seconds
"""
import itertools
import json
import sqlite3
import sys
import time
from collections import Counter


def run(db_path, sql):
    try:
        con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        con.text_factory = lambda b: b.decode(errors="replace")
        try:
            return con.execute(sql).fetchall()
        finally:
            con.close()
    except Exception:  # an error is a wrong prediction
        return None


def column_permutations(gold_columns, pred_rows):
    """Column orders of the prediction worth trying: all of them for up to three columns, otherwise only those
    whose sampled values all occur in the gold column they would be matched to."""
    n = len(gold_columns)
    if n <= 3:
        return itertools.permutations(range(n))
    sample = pred_rows[:20]
    allowed = []
    for g in range(n):
        allowed.append([p for p in range(n) if all(row[p] in gold_columns[g] for row in sample)])
    return (perm for perm in itertools.product(*allowed) if len(set(perm)) == n)


def denotations_equal(gold, pred, order_matters):
    if not gold and not pred:
        return True
    if len(gold) != len(pred):
        return False
    n = len(gold[0])
    if len(pred[0]) != n:
        return False
    # Quick reject: each row with its values put in a canonical order must match (as lists, or as sets of rows);
    # values still compare with Python equality (5 == 5.0).
    def unordered(row):
        return tuple(sorted(row, key=lambda v: str(v) + str(type(v))))
    g_rows = [unordered(r) for r in gold]
    p_rows = [unordered(r) for r in pred]
    if (g_rows != p_rows) if order_matters else (set(g_rows) != set(p_rows)):
        return False
    gold_columns = [{row[i] for row in gold} for i in range(n)]
    gold_counter = None if order_matters else Counter(gold)
    for perm in column_permutations(gold_columns, pred):
        permuted = [tuple(row[i] for i in perm) for row in pred]
        if order_matters:
            if permuted == gold:
                return True
        elif Counter(permuted) == gold_counter:
            return True
    return False


def main():
    questions_path, db_dir, predictions_path = sys.argv[1:4]
    start = time.perf_counter()
    with open(questions_path) as f:
        questions = json.load(f)
    with open(predictions_path) as f:
        predictions = [line.split("\t")[0].strip() for line in f]
    right = 0
    for q, pred in zip(questions, predictions):
        db = f"{db_dir}/{q['db_id']}/{q['db_id']}.sqlite"
        gold_rows = run(db, q["query"])
        pred_rows = run(db, pred)
        if gold_rows is not None and pred_rows is not None:
            right += denotations_equal(gold_rows, pred_rows, "order by" in q["query"].lower())
    elapsed = time.perf_counter() - start
    print(f"EX {right}/{len(questions)}  {elapsed:.3f} s")


if __name__ == "__main__":
    main()
