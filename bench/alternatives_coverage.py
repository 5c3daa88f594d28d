#!/usr/bin/env python3
"""How often the expander's other readings hold the right words that its best reading misses.

For every name of the crosswalks in --crosswalks (SNAILS' layout, as bench/cryptic_copies.py writes them beside the
copies: native_identifier, table_or_column, N3_identifier, table) whose N3 name reads differently from its native
name, the N3 name is read by `plainsql naturalness expand --explain` (a column with its table's N3 name; no stored
values, so the context is less than `rename` has). Printed: the share of names whose native words (singular) are all
among the words of the best reading, and among those of the best reading or any word's listed alternatives.

  python3 bench/alternatives_coverage.py --plainsql build-dev/plainsql --crosswalks /tmp/cryptic-train/crosswalks \
      --name-model nm_fold.tsv
"""
import argparse
import csv
import io
import os
import re
import subprocess


def words(name):
    out = []
    for part in re.split(r"[^A-Za-z0-9]+", name):
        out += [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", part)]
    return out


def singular(w):
    return w[:-1] if w.endswith("s") and len(w) > 3 and not w.endswith("ss") else w


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plainsql", required=True)
    ap.add_argument("--crosswalks", required=True, help="a directory of <db_id>.csv crosswalks")
    ap.add_argument("--name-model", required=True)
    args = ap.parse_args()
    lines, gold = [], []
    for f in sorted(os.listdir(args.crosswalks)):
        if not f.endswith(".csv"):
            continue
        rows = list(csv.DictReader(open(os.path.join(args.crosswalks, f), newline="")))
        tables = {r["native_identifier"]: r["N3_identifier"] for r in rows if r["table_or_column"] == "table"}
        for r in rows:
            n3, native = r["N3_identifier"], r["native_identifier"]
            if words(n3) == words(native):
                continue
            table = r.get("table") or ""
            is_column = r["table_or_column"] != "table" and table
            lines.append(f"{n3},{tables.get(table, table)}" if is_column else n3)
            gold.append(native)
    out = subprocess.run([args.plainsql, "naturalness", "expand", "--explain", "--name-model", args.name_model],
                         input="\n".join(lines) + "\n", capture_output=True, text=True, check=True).stdout
    readings = list(csv.reader(io.StringIO(out)))[1:]
    if len(readings) != len(gold):
        raise SystemExit(f"expand read {len(readings)} names of {len(gold)}")
    best = anywhere = 0
    for (_, expanded, explanation), native in zip(readings, gold):
        want = {singular(w) for w in words(native)}
        top = {singular(w) for w in words(expanded)}
        every = set(top)
        for m in re.finditer(r"\[or ([^\]]*)\]", explanation):
            for alternative in m.group(1).split(", "):
                every |= {singular(w) for w in words(alternative.split(" (")[0])}
        best += want <= top
        anywhere += want <= every
    n = len(gold)
    print(f"{n} names: every native word in the best reading {best / n:.3f}, "
          f"in the best reading or the alternatives {anywhere / n:.3f}")


if __name__ == "__main__":
    main()
