#!/usr/bin/env python3
"""Training haystacks for the large-schema settings (issue #18, twenty-fourth part, docs/BENCHMARKS.md): variants of
the haystack whose held-out Spider train databases are cryptic or keyless, to choose settings on without dev sets.

    # a data folder whose held-out train databases are their abbreviated copies (bench/cryptic_copies.py output)
    python3 bench/haystack_variants.py abbreviated --data-dir ../shared/data --copies /tmp/ct --out /tmp/cdata
    build-dev/plainsql eval haystack --data-dir /tmp/cdata --out /tmp/hsc
    # a haystack whose held-out databases declare no foreign keys
    python3 bench/haystack_variants.py keyless --haystack /tmp/hs --out /tmp/hsn
    # a haystack whose held-out databases' most read table is widened to 64-192 columns
    python3 bench/haystack_variants.py wide --haystack /tmp/hs --out /tmp/hsw
    # both: the abbreviated haystack widened, the borrowed columns abbreviated too (an NTSB- or ERP-like wide table)
    python3 bench/haystack_variants.py wide --haystack /tmp/hsc --abbreviate 1 --out /tmp/hscw
    # one cryptic wide table in each otherwise natural held-out database (NTSB-like: the database is found by its
    # natural tables, the wide table's columns are abbreviated); the gold queries rewritten by `plainsql translate`
    python3 bench/haystack_variants.py wide --haystack /tmp/hs --abbreviate 1 --cryptic-own build-dev/plainsql \
        --out /tmp/hsx

`/tmp/ct` comes from `python3 bench/cryptic_copies.py --plainsql build-dev/plainsql --questions HELDOUT.json --db-dir
../shared/data/spider/database --abbreviate 1 --out /tmp/ct`, HELDOUT.json being the train questions of the databases
`train_linker --held-out` lists. Then `haystack_bench measure --tables OUT/tables.json --questions
OUT/questions_spider_train_heldout.json`.
"""
import argparse
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

from cryptic_copies import abbreviate as abbreviated_name

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


def wide(args):
    """Widens each held-out database's most read table to 64-192 columns (--min-width, --max-width), as train_linker's wide copies do: columns
    borrowed from the Spider train databases that are not held out, placed at random among the table's own, so a
    wide table's gold columns sit among many that no question reads (SNAILS' and ERP schemas have tables of a hundred
    columns and more; Spider train's widest has a few dozen)."""
    tables = json.load(open(os.path.join(args.haystack, "tables.json")))
    questions = json.load(open(os.path.join(args.haystack, "questions_spider_train_heldout.json")))
    manifest = json.load(open(os.path.join(args.haystack, "manifest.json")))
    held = {q["source_db"] for q in questions}
    train = {q["source_db"] for q in json.load(open(os.path.join(args.haystack, "questions_spider_train.json")))}
    prefix = {v: k.split("/", 1)[1] for k, v in manifest["prefixes"].items() if k.startswith("spider/")}
    schema = tables[0]
    names = schema["table_names_original"]
    columns, types = schema["column_names_original"], schema["column_types"]
    rng = random.Random(args.seed)
    # The pool to borrow from: columns of the training databases that are not held out (keys left out).
    flat = [i for k in schema["primary_keys"] for i in (k if isinstance(k, list) else [k])]  # composite keys: lists
    keys = set(flat) | {i for fk in schema["foreign_keys"] for i in fk}
    def source(ti):
        return prefix.get(names[ti].split("__")[0] + "__")

    pool = [(c[1], types[i]) for i, c in enumerate(columns)
            if c[0] >= 0 and i not in keys and source(c[0]) in train and source(c[0]) not in held]
    # Each held-out database's most read table, by its questions' gold queries.
    reads = {}
    for q in questions:
        for ti, t in enumerate(names):
            if t.split("__")[0] == q["source_db"] and re.search(r"\b" + re.escape(t) + r"\b", q["query"], re.I):
                reads[ti] = reads.get(ti, 0) + 1
    widest = {}
    for ti, n in reads.items():
        db = names[ti].split("__")[0]
        if db not in widest or n > reads[widest[db]]:
            widest[db] = ti
    distinct = {(abbreviated_name(n, args.abbreviate) if args.abbreviate is not None else n).lower() for n, _ in pool}
    extra = {}
    for db, ti in sorted(widest.items()):
        own = {c[1].lower() for c in columns if c[0] == ti}
        width = rng.randint(args.min_width, args.max_width)
        if len(own | distinct) < width:  # the loop below would never end
            sys.exit(f"haystack_variants.py: {names[ti]} cannot be widened to {width} columns: the training databases "
                     f"that are not held out lend {len(distinct)} distinct names (lower --max-width)")
        added = []
        while len(own) < width:  # own holds the borrowed names too
            name, typ = rng.choice(pool)
            if args.abbreviate is not None:
                name = abbreviated_name(name, args.abbreviate)
            if name.lower() not in own:
                own.add(name.lower())
                added.append((name, typ))
        extra[ti] = added
    renamed = cryptic_own(args, schema, widest, extra) if args.cryptic_own else {}
    # The new column list: each widened table's own columns in their order, borrowed ones at random places among them.
    new_index, out_cols, out_types, out_labels = {0: 0}, [[-1, "*"]], [types[0]], [schema["column_names"][0]]
    for ti in range(len(names)):
        own = [i for i, c in enumerate(columns) if c[0] == ti]
        slots = [("own", i) for i in own] + [("new", x) for x in extra.get(ti, [])]
        if ti in extra:
            rng.shuffle(slots)
            rest = iter([s for s in slots if s[0] == "own"])  # own columns keep their relative order
            slots = [next(rest) if s[0] == "own" else s for s in slots]
        for kind, x in slots:
            if kind == "own":
                new_index[x] = len(out_cols)
                out_cols.append(columns[x])
                out_types.append(types[x])
                out_labels.append(schema["column_names"][x])
            else:
                out_cols.append([ti, x[0]])
                out_types.append(x[1])
                out_labels.append([ti, x[0].replace("_", " ").lower()])
    schema["column_names_original"], schema["column_types"], schema["column_names"] = out_cols, out_types, out_labels
    schema["primary_keys"] = [[new_index[i] for i in k] if isinstance(k, list) else new_index[k]
                              for k in schema["primary_keys"]]
    schema["foreign_keys"] = [[new_index[a], new_index[b]] for a, b in schema["foreign_keys"]]
    os.makedirs(args.out, exist_ok=True)
    json.dump(tables, open(os.path.join(args.out, "tables.json"), "w"))
    if renamed:
        questions = rewrite_gold(args, schema, questions, renamed)
        json.dump(questions, open(os.path.join(args.out, "questions_spider_train_heldout.json"), "w"))
    else:
        shutil.copy(os.path.join(args.haystack, "questions_spider_train_heldout.json"), args.out)
    added = sum(len(x) for x in extra.values())
    print(f"{len(extra)} held-out tables widened by {added} borrowed columns: {len(columns) - 1} -> "
          f"{len(out_cols) - 1} columns; written to {args.out}")


def cryptic_own(args, schema, widest, extra):
    """Abbreviates the own columns of each widened table in place (keys too, as NTSB's `ev_id` is), a name another
    column of the table already has kept native. Returns {table index: {native: new}} for the gold queries."""
    columns = schema["column_names_original"]
    renamed = {}
    for ti in widest.values():
        taken = {name.lower() for name, _ in extra.get(ti, [])} | {c[1].lower() for c in columns if c[0] == ti}
        names = {}
        for i, c in enumerate(columns):
            if c[0] != ti:
                continue
            new = abbreviated_name(c[1], args.abbreviate)
            if new.lower() == c[1].lower() or new.lower() in taken:
                continue
            taken.add(new.lower())
            names[c[1]] = new
            columns[i] = [ti, new]
            schema["column_names"][i] = [ti, new.replace("_", " ").lower()]
        renamed[ti] = names
    return renamed


def rewrite_gold(args, schema, questions, renamed):
    """The gold queries of the databases whose wide table was renamed, rewritten to the new names by `plainsql
    translate` over a schema of that database's tables alone (its native names; a crosswalk per table). Questions
    whose query cannot be rewritten are left out and counted."""
    names = schema["table_names_original"]
    by_db = {names[ti].split("__")[0]: ti for ti in renamed}
    kept, dropped = [], 0
    with tempfile.TemporaryDirectory() as work:
        for db, ti in by_db.items():
            own = [j for j, t in enumerate(names) if t.split("__")[0] == db]
            native = {new: old for old, new in renamed[ti].items()}
            cols = [[-1, "*"]] + [[own.index(c[0]), native.get(c[1], c[1]) if c[0] == ti else c[1]]
                                  for c in schema["column_names_original"] if c[0] in own]
            mini = {"db_id": db, "table_names_original": [names[j] for j in own], "table_names": [names[j] for j in own],
                    "column_names_original": cols, "column_names": cols, "column_types": ["text"] * len(cols),
                    "primary_keys": [], "foreign_keys": []}
            json.dump([mini], open(os.path.join(work, db + ".json"), "w"))
            with open(os.path.join(work, db + ".csv"), "w") as f:
                f.write("native_identifier,table_or_column,source_database,N1_identifier,N2_identifier,"
                        "N3_identifier,table\n")
                for old, new in renamed[ti].items():
                    f.write(f"{old},column,{db},{new},{new},{new},{names[ti]}\n")
        for q in questions:
            db = q["source_db"]
            if db not in by_db:
                kept.append(q)
                continue
            run = subprocess.run([args.cryptic_own, "translate", "--tables", os.path.join(work, db + ".json"), "--db",
                                  db, "--dialect", "sqlite", "--crosswalk", os.path.join(work, db + ".csv"), "--from",
                                  "native", "--to", "N3"], input=q["query"], capture_output=True, text=True)
            if run.returncode != 0 or not run.stdout.strip():
                dropped += 1
                continue
            kept.append(dict(q, query=run.stdout.strip()))
    print(f"{sum(len(x) for x in renamed.values())} own columns of {len(renamed)} wide tables abbreviated; "
          f"{len(kept)} questions kept, {dropped} whose gold query could not be rewritten", file=sys.stderr)
    return kept


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
    w = sub.add_parser("wide", help="a haystack whose held-out databases' most read table is widened")
    w.add_argument("--haystack", required=True, help="a folder written by `plainsql eval haystack`")
    w.add_argument("--out", required=True)
    w.add_argument("--seed", type=int, default=1)
    w.add_argument("--min-width", type=int, default=64, help="the narrowest a widened table gets")
    w.add_argument("--max-width", type=int, default=192, help="the widest a widened table gets")
    w.add_argument("--abbreviate", metavar="SEED", help="abbreviate the borrowed columns' names as "
                   "bench/cryptic_copies.py --abbreviate SEED does (for a haystack of abbreviated copies)")
    w.add_argument("--cryptic-own", metavar="PLAINSQL", help="abbreviate the widened tables' own columns too "
                   "(needs --abbreviate) and rewrite the gold queries with this plainsql binary's `translate`")
    args = ap.parse_args()
    if getattr(args, "cryptic_own", None) and args.abbreviate is None:
        ap.error("--cryptic-own needs --abbreviate SEED")
    if args.variant == "wide" and not 0 < args.min_width <= args.max_width:
        ap.error("--min-width must be positive and at most --max-width")
    {"abbreviated": abbreviated, "keyless": keyless, "wide": wide}[args.variant](args)


if __name__ == "__main__":
    main()
