#!/usr/bin/env python3
"""Cryptic copies of Spider databases, to measure a system on abbreviated names with the data unchanged.

For each database with a crosswalk (SNAILS' crosswalks-spider/<db_id>.csv: native -> N1 / N2 / N3 names), the SQLite
file is copied and its tables and columns renamed to the chosen level's names with ALTER TABLE (SQLite keeps the keys
and rewrites the foreign keys that name them). The questions of those databases are written to a new questions file
whose gold queries are rewritten to the same names by `plainsql translate`, so `plainsql eval run` scores them as
usual.

  python3 bench/cryptic_copies.py --plainsql build-dev/plainsql --questions ../shared/data/spider/dev.json \
      --db-dir ../shared/data/spider/database --crosswalks ../shared/data/snails/crosswalks-spider --level N3 \
      --out /tmp/cryptic
  build-dev/plainsql eval run --benchmark spider --questions /tmp/cryptic/questions.json \
      --db-dir /tmp/cryptic/database --system builtin

Two columns of one table given one name (SQLite compares names without case) would clash: the later keeps its native
name, as does a table whose new name another takes; the crosswalks actually applied are written beside the copies.
Questions whose gold query cannot be rewritten are left out and counted.

Databases without a crosswalk (Spider's train databases) can be abbreviated instead: --abbreviate SEED writes a
crosswalk whose N3 names mix the styles of SNAILS' Least names (initials of a multi-word name, a word's first letter,
its first three letters, its consonant skeleton cut to four letters), chosen per name from a hash of the seed and the
name, so a run is repeatable. --fold K/N keeps the databases whose CRC-32 of the name is K modulo N (a split by database
for development: train on the others).

  python3 bench/cryptic_copies.py --plainsql build-dev/plainsql --questions ../shared/data/spider/train.json \
      --db-dir ../shared/data/spider/database --abbreviate 1 --fold 0/5 --out /tmp/cryptic-train
"""
import argparse
import csv
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import zlib


def read_crosswalk(path, level):
    tables, columns = {}, {}
    with open(path, newline="", encoding="utf-8-sig") as f:
        for row in csv.DictReader(f):
            name = row[f"{level}_identifier"].strip()
            native = row["native_identifier"].strip()
            if not name or not native:
                continue
            (tables if row["table_or_column"].strip() == "table" else columns)[native.lower()] = name
    return tables, columns


def split_words(name):
    words = []
    for part in re.split(r"[^A-Za-z0-9]+", name):
        words += re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", part)
    return [w for w in words if w]


def skeleton(word):
    out = word[0]
    for c in word[1:]:
        if c.lower() not in "aeiou" and c.lower() != out[-1].lower():
            out += c
    return out


def abbreviate(name, seed):
    """A Least-natural name for `name`: a style per name and per word, from a hash of the seed and the name."""
    words = split_words(name)
    if not words:
        return name
    h = zlib.crc32(f"{seed}:{name}".encode())
    if len(words) > 1 and h % 10 < 4:
        return "".join(w if w.isdigit() else w[0].upper() for w in words)
    parts = []
    for i, w in enumerate(words):
        r = zlib.crc32(f"{seed}:{name}:{i}".encode()) % 10
        if w.isdigit() or len(w) <= 2:
            parts.append(w)
        elif r < 3:
            parts.append(w[0])
        elif r < 6:
            parts.append(w[:3])
        else:
            parts.append(skeleton(w)[:4])
    parts = [p[0].upper() + p[1:] for p in parts]
    return "_".join(parts)


def abbreviated_crosswalk(db_path, seed):
    con = sqlite3.connect(db_path)
    names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    tables, columns = {}, {}
    for t in names:
        tables[t.lower()] = abbreviate(t, seed)
        for c in [r[1] for r in con.execute(f"PRAGMA table_info({quote(t)})")]:
            columns.setdefault(c.lower(), abbreviate(c, seed))
    con.close()
    return tables, columns


def quote(name):
    return '"' + name.replace('"', '""') + '"'


def resolve_collisions(db_path, tables, columns):
    """Columns whose new name another column of one of their tables already takes keep their native name (everywhere:
    a crosswalk names columns, not table.column); likewise tables. Returns the native names kept."""
    con = sqlite3.connect(db_path)
    names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    cols = {t: [r[1] for r in con.execute(f"PRAGMA table_info({quote(t)})")] for t in names}
    con.close()
    kept = set()
    changed = True
    while changed:
        changed = False
        for t in names:
            seen = set()
            for c in cols[t]:
                new = columns.get(c.lower(), c).lower()
                if new in seen and c.lower() in columns:
                    del columns[c.lower()]
                    kept.add(c)
                    changed = True
                    break
                seen.add(new)
            if changed:
                break
    seen = set()
    for t in names:
        new = tables.get(t.lower(), t).lower()
        if new in seen and t.lower() in tables:
            del tables[t.lower()]
            kept.add(t)
        seen.add(tables.get(t.lower(), t).lower())
    return kept


def write_crosswalk(path, level, tables, columns, source):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["native_identifier", "table_or_column", "source_database", "N1_identifier", "N2_identifier",
                    "N3_identifier"])
        for kind, names in (("table", tables), ("column", columns)):
            for native, name in sorted(names.items()):
                row = [native, kind, source, native, native, native]
                row[3 + ["N1", "N2", "N3"].index(level)] = name
                w.writerow(row)


def rename_database(src, dst, tables, columns):
    shutil.copyfile(src, dst)
    con = sqlite3.connect(dst)
    con.execute("PRAGMA legacy_alter_table = OFF")
    names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    for table in names:
        for col in [r[1] for r in con.execute(f"PRAGMA table_info({quote(table)})")]:
            new = columns.get(col.lower())
            if new and new != col:
                con.execute(f"ALTER TABLE {quote(table)} RENAME COLUMN {quote(col)} TO {quote(new)}")
    for table in names:
        new = tables.get(table.lower())
        if new and new.lower() != table.lower():
            con.execute(f"ALTER TABLE {quote(table)} RENAME TO {quote(new)}")
    con.commit()
    con.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plainsql", required=True)
    ap.add_argument("--questions", required=True)
    ap.add_argument("--db-dir", required=True)
    ap.add_argument("--crosswalks", help="SNAILS crosswalks, one <db_id>.csv per database")
    ap.add_argument("--abbreviate", metavar="SEED", help="abbreviate databases instead of reading crosswalks")
    ap.add_argument("--fold", metavar="K/N", help="only the databases whose name's CRC-32 is K modulo N")
    ap.add_argument("--level", default="N3", choices=["N1", "N2", "N3"])
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    if bool(args.crosswalks) == bool(args.abbreviate):
        ap.error("give --crosswalks or --abbreviate")
    fold = tuple(int(x) for x in args.fold.split("/")) if args.fold else None

    questions = json.load(open(args.questions, encoding="utf-8"))
    os.makedirs(os.path.join(args.out, "database"), exist_ok=True)
    kept, dropped, done = [], 0, set()
    for q in questions:
        db = q["db_id"]
        if fold and zlib.crc32(db.encode()) % fold[1] != fold[0]:
            continue
        native_db = os.path.join(args.db_dir, db, db + ".sqlite")
        crosswalk = os.path.join(args.crosswalks, db + ".csv") if args.crosswalks else None
        if (crosswalk and not os.path.exists(crosswalk)) or not os.path.exists(native_db):
            continue
        copy_dir = os.path.join(args.out, "database", db)
        resolved = os.path.join(args.out, "crosswalks", db + ".csv")
        if db not in done:
            os.makedirs(copy_dir, exist_ok=True)
            os.makedirs(os.path.dirname(resolved), exist_ok=True)
            if crosswalk:
                tables, columns = read_crosswalk(crosswalk, args.level)
            else:
                tables, columns = abbreviated_crosswalk(native_db, args.abbreviate)
            kept_native = resolve_collisions(native_db, tables, columns)
            if kept_native:
                print(f"{db}: kept native (the new name was taken): {', '.join(sorted(kept_native))}", file=sys.stderr)
            write_crosswalk(resolved, args.level, tables, columns, db)
            rename_database(native_db, os.path.join(copy_dir, db + ".sqlite"), tables, columns)
            done.add(db)
        run = subprocess.run([args.plainsql, "translate", native_db, "--crosswalk", resolved, "--from", "native",
                              "--to", args.level], input=q["query"], capture_output=True, text=True)
        if run.returncode != 0 or not run.stdout.strip():
            dropped += 1
            continue
        item = dict(q)
        item["query"] = run.stdout.strip()
        item.pop("sql", None)  # Spider's parsed form names the native columns
        kept.append(item)
    with open(os.path.join(args.out, "questions.json"), "w", encoding="utf-8") as f:
        json.dump(kept, f, indent=1)
    print(f"{len(done)} databases renamed to {args.level}, {len(kept)} questions kept, {dropped} whose gold query "
          f"could not be rewritten", file=sys.stderr)


if __name__ == "__main__":
    main()
