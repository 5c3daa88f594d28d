#!/usr/bin/env python3
"""The held-out Spider train questions whose gold query reads a name the naturalness classifier calls Low or Least
(issue #18, eighteenth part, docs/BENCHMARKS.md): a measure of real, human-made cryptic names (`StuID`, `authID`,
`Inst`, `apt_type_code`) to choose subsetting settings on, where the abbreviated copies of bench/cryptic_copies.py
measure only the styles of our own abbreviator. The held-out databases are those bench/train_linker never fits
(`train_linker --held-out`); a gold identifier is matched by name, case ignored.

    python3 bench/real_cryptic_questions.py --plainsql build-dev/plainsql --train-linker build-dev/bench/train_linker \\
        --questions ../shared/data/spider/train.json --tables ../shared/data/spider/tables.json --out /tmp/cryptic_q.json

Then `plainsql link --questions OUT --tables ... [--db-dir ...] --json` and `plainsql eval subsets`.
"""
import argparse
import csv
import io
import json
import re
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plainsql", required=True, help="the plainsql program (for naturalness classify)")
    ap.add_argument("--train-linker", required=True, help="bench/train_linker (for the held-out databases)")
    ap.add_argument("--questions", required=True, help="Spider train.json")
    ap.add_argument("--tables", required=True, help="Spider tables.json")
    ap.add_argument("--out", required=True, help="where to write the selected questions (Spider's format)")
    args = ap.parse_args()

    held = set(subprocess.run([args.train_linker, "--held-out", "--questions", args.questions], check=True,
                              capture_output=True, text=True).stdout.split())
    if not held:
        sys.exit("no held-out databases: is --questions Spider's train.json?")
    schemas = {t["db_id"]: t for t in json.load(open(args.tables))}
    names = set()
    for db in held:
        if db not in schemas:
            sys.exit(f"{db} is not in {args.tables}")
        names.update(schemas[db]["table_names_original"])
        names.update(c for _, c in schemas[db]["column_names_original"] if c != "*")
    classified = subprocess.run([args.plainsql, "naturalness", "classify"], input="\n".join(sorted(names)) + "\n",
                                check=True, capture_output=True, text=True).stdout
    cryptic = {r["identifier"].lower() for r in csv.DictReader(io.StringIO(classified)) if r["label"] != "N1"}

    questions = [q for q in json.load(open(args.questions)) if q["db_id"] in held]
    kept = []
    for q in questions:
        words = {w.lower() for w in re.findall(r"[A-Za-z_][A-Za-z0-9_%]*", q["query"])}
        if words & cryptic:
            kept.append(q)
    json.dump(kept, open(args.out, "w"), indent=1)
    print(f"{len(held)} held-out databases, {len(names)} names ({len(cryptic)} Low or Least), "
          f"{len(kept)} of {len(questions)} questions kept", file=sys.stderr)


if __name__ == "__main__":
    main()
