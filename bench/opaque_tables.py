#!/usr/bin/env python3
"""A copy of a stand-in whose table names are opaque codes, as an ERP names its tables ("OCRD", "ORDR").

Every table of every schema in DIR/tables.json is renamed to "O" and three capital letters drawn from a CRC-32 of its
database and name (unique within the schema); columns, keys and questions stay; each gold query is rewritten by
`plainsql translate` with a table-only crosswalk (written beside the copy, one CSV per schema). Questions whose gold
query cannot be rewritten are left out and counted. Used for issue #18 (docs/BENCHMARKS.md, thirty-third part):

  python3 bench/opaque_tables.py --plainsql build-dev/plainsql --standin /tmp/lsr1 --out /tmp/lsop1
  build-dev/plainsql link --questions /tmp/lsop1/questions.json --tables /tmp/lsop1/tables.json --json > S
  build-dev/plainsql eval subsets --questions /tmp/lsop1/questions.json --tables /tmp/lsop1/tables.json --subsets S

--standin is a folder with tables.json and questions.json (bench/l_standin.py writes one).
"""
import argparse
import csv
import json
import os
import string
import subprocess
import sys
import zlib

LETTERS = string.ascii_uppercase


def codes(db_id, tables):
    """One opaque code per table, unique within the schema (case-insensitively)."""
    used, out = set(), []
    taken = {x.lower() for x in tables}  # a code never takes a table's own name
    for t in tables:
        h = zlib.crc32((db_id + t).encode())
        while True:
            code = "O" + LETTERS[h % 26] + LETTERS[(h // 26) % 26] + LETTERS[(h // 676) % 26]
            if code.lower() not in used and code.lower() not in taken:
                break
            h = h * 31 + 7
        used.add(code.lower())
        out.append(code)
    return out


CROSSWALK_HEADER = ["native_identifier", "table_or_column", "source_database", "N1_identifier", "N2_identifier",
                    "N3_identifier"]


def write_crosswalk(path, db_id, rows):
    """A crosswalk CSV whose every level names each (native, "table" or "column") as `new`."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(CROSSWALK_HEADER)
        for native, kind, new in rows:
            w.writerow([native, kind, db_id, new, new, new])


def rewritten_questions(plainsql, source, questions, crosswalks):
    """The questions with their gold queries rewritten by `plainsql translate` (schemas in `source`, a tables.json;
    crosswalks/<db_id>.csv), and how many could not be rewritten (left out)."""
    kept, failed = [], 0
    for q in questions:
        crosswalk = os.path.join(crosswalks, q["db_id"] + ".csv")
        run = subprocess.run([plainsql, "translate", "--tables", source, "--db", q["db_id"], "--crosswalk",
                              crosswalk, "--from", "native", "--to", "N3", "-d", "sqlite", "--strict"],
                             input=q["query"], capture_output=True, text=True)
        if run.returncode != 0 or not run.stdout.strip():
            failed += 1
            continue
        kept.append(dict(q, query=run.stdout.strip()))
    return kept, failed


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("--plainsql", required=True, help="the plainsql binary (its translate rewrites the gold queries)")
    a.add_argument("--standin", required=True, help="a folder with tables.json and questions.json")
    a.add_argument("--out", required=True)
    args = a.parse_args()
    tables = json.load(open(os.path.join(args.standin, "tables.json")))
    questions = json.load(open(os.path.join(args.standin, "questions.json")))
    os.makedirs(os.path.join(args.out, "crosswalks"), exist_ok=True)
    renamed = {}
    for d in tables:
        renamed[d["db_id"]] = codes(d["db_id"], d["table_names_original"])
        write_crosswalk(os.path.join(args.out, "crosswalks", d["db_id"] + ".csv"), d["db_id"],
                        [(t, "table", code) for t, code in zip(d["table_names_original"], renamed[d["db_id"]])])
    kept, failed = rewritten_questions(args.plainsql, os.path.join(args.standin, "tables.json"), questions,
                                       os.path.join(args.out, "crosswalks"))
    for d in tables:
        d["table_names_original"] = renamed[d["db_id"]]
        d["table_names"] = list(renamed[d["db_id"]])
    json.dump(tables, open(os.path.join(args.out, "tables.json"), "w"))
    json.dump(kept, open(os.path.join(args.out, "questions.json"), "w"), indent=1)
    print(f"{len(tables)} schemas, {sum(len(v) for v in renamed.values())} tables renamed; {len(kept)} questions "
          f"kept, {failed} whose gold query could not be rewritten; written to {args.out}")
    return 0 if kept else 1


if __name__ == "__main__":
    sys.exit(main())
