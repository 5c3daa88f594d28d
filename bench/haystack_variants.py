#!/usr/bin/env python3
"""Training haystacks for the large-schema settings (issue #18, twenty-fourth part, docs/BENCHMARKS.md): variants of
the haystack whose held-out Spider train databases are cryptic or keyless, to choose settings on without dev sets.

    # a data folder whose held-out train databases are their abbreviated copies (bench/cryptic_copies.py output)
    python3 bench/haystack_variants.py abbreviated --data-dir ../shared/data --copies /tmp/ct --out /tmp/cdata
    build-dev/plainsql eval haystack --data-dir /tmp/cdata --out /tmp/hsc
    # a haystack whose held-out databases declare no foreign keys
    python3 bench/haystack_variants.py keyless --haystack /tmp/hs --out /tmp/hsn

`/tmp/ct` comes from `python3 bench/cryptic_copies.py --plainsql build-dev/plainsql --questions HELDOUT.json --db-dir
../shared/data/spider/database --abbreviate 1 --out /tmp/ct`, HELDOUT.json being the train questions of the databases
`train_linker --held-out` lists. Then `haystack_bench measure --tables OUT/tables.json --questions
OUT/questions_spider_train_heldout.json`.
"""
import argparse
import json
import os
import shutil
import sqlite3

NUMERIC = ("int", "real", "num", "float", "double", "dec")


def spider_entry(sqlite_file, db_id):
    """A Spider tables.json entry for a SQLite database: its tables, columns, primary and foreign keys."""
    con = sqlite3.connect(f"file:{sqlite_file}?mode=ro", uri=True)
    tables = [r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")]
    lower = [t.lower() for t in tables]
    columns, types, primary, index = [[-1, "*"]], ["text"], [], {}
    for ti, t in enumerate(tables):
        for _, name, typ, _, _, pk in con.execute(f'PRAGMA table_info("{t}")'):
            index[(t.lower(), name.lower())] = len(columns)
            if pk:
                primary.append(len(columns))
            columns.append([ti, name])
            types.append("number" if any(k in (typ or "").lower() for k in NUMERIC) else "text")
    foreign = []
    for t in tables:
        for row in con.execute(f'PRAGMA foreign_key_list("{t}")'):
            ref_table, child, ref_column = row[2], row[3], row[4]
            a = index.get((t.lower(), child.lower()))
            if ref_column is None:  # the referenced table's primary key
                ti = lower.index(ref_table.lower()) if ref_table.lower() in lower else -1
                b = next((i for i in primary if columns[i][0] == ti), None)
            else:
                b = index.get((ref_table.lower(), ref_column.lower()))
            if a is not None and b is not None:
                foreign.append([a, b])
    con.close()
    return {"db_id": db_id, "table_names_original": tables, "table_names": tables,
            "column_names_original": columns, "column_names": columns, "column_types": types,
            "primary_keys": primary, "foreign_keys": foreign}


def abbreviated(args):
    spider = os.path.join(args.data_dir, "spider")
    copied = sorted(os.listdir(os.path.join(args.copies, "database")))
    tables = json.load(open(os.path.join(spider, "tables.json")))
    out_tables = [spider_entry(os.path.join(args.copies, "database", t["db_id"], t["db_id"] + ".sqlite"), t["db_id"])
                  if t["db_id"] in copied else t for t in tables]
    train = json.load(open(os.path.join(spider, "train.json")))
    questions = json.load(open(os.path.join(args.copies, "questions.json")))
    out_train = [q for q in train if q["db_id"] not in copied] + questions
    os.makedirs(os.path.join(args.out, "spider"), exist_ok=True)
    json.dump(out_tables, open(os.path.join(args.out, "spider", "tables.json"), "w"))
    json.dump(out_train, open(os.path.join(args.out, "spider", "train.json"), "w"))
    for src, dst in [("spider/dev.json", "spider/dev.json"), ("bird", "bird"), ("snails", "snails")]:
        link = os.path.join(args.out, dst)
        if not os.path.lexists(link):
            os.symlink(os.path.abspath(os.path.join(args.data_dir, src)), link)
    print(f"{len(copied)} databases replaced by their copies; {len(out_train)} train questions "
          f"({len(questions)} on the copies); written to {args.out}")


def keyless(args):
    tables = json.load(open(os.path.join(args.haystack, "tables.json")))
    questions = json.load(open(os.path.join(args.haystack, "questions_spider_train_heldout.json")))
    held = {q["source_db"] for q in questions}
    schema = tables[0]
    names = schema["table_names_original"]
    owner = [c[0] for c in schema["column_names_original"]]

    def held_out(ti):
        return ti >= 0 and names[ti].split("__")[0] in held

    before = len(schema["foreign_keys"])
    schema["foreign_keys"] = [fk for fk in schema["foreign_keys"]
                              if not (held_out(owner[fk[0]]) or held_out(owner[fk[1]]))]
    os.makedirs(args.out, exist_ok=True)
    json.dump(tables, open(os.path.join(args.out, "tables.json"), "w"))
    shutil.copy(os.path.join(args.haystack, "questions_spider_train_heldout.json"), args.out)
    print(f"{len(held)} held-out databases' foreign keys dropped: {before} -> {len(schema['foreign_keys'])}; "
          f"written to {args.out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="variant", required=True)
    a = sub.add_parser("abbreviated", help="a data folder whose held-out train databases are abbreviated copies")
    a.add_argument("--data-dir", required=True, help="../shared/data")
    a.add_argument("--copies", required=True, help="the output folder of bench/cryptic_copies.py")
    a.add_argument("--out", required=True)
    k = sub.add_parser("keyless", help="a haystack whose held-out databases declare no foreign keys")
    k.add_argument("--haystack", required=True, help="a folder written by `plainsql eval haystack`")
    k.add_argument("--out", required=True)
    args = ap.parse_args()
    abbreviated(args) if args.variant == "abbreviated" else keyless(args)


if __name__ == "__main__":
    main()
