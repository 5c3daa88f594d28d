#!/usr/bin/env python3
"""Training stand-ins for SNAILS' L-size schemas (issue #18; docs/BENCHMARKS.md, "what the L-size sets look like").

SNAILS' schemas of 1,000 columns and more (NTSB, SAP's modules) are a few dozen tables, the widest of one to four
hundred columns, and most declare no foreign keys; the trainer's merged stand-ins are hundreds of narrow tables joined
by keys. This writes schemas of the first shape from Spider train databases, to measure subsetting on without dev sets:
the databases of a questions file (held-out ones: `train_linker --held-out`) are put together in groups whose table
names do not clash, each database's most read table is widened with columns borrowed from the other training databases
to --min-width..--max-width columns, every foreign key is dropped, and a group is closed when it holds --columns
columns. Key columns are not borrowed, nor names that mean what one of the widened table's own columns means (the same
words, WordNet synonyms, or one name abbreviating the other: `family_name` beside `last_name`, `first_name` beside
`Fname`). The questions keep their gold queries (table names are not changed); their db_id becomes the group's. No
database file is written: subsetting is measured without values, as on SNAILS.

    python3 bench/l_standin.py --questions HELDOUT.json --tables ../shared/data/spider/tables.json \
        --train ../shared/data/spider/train.json --out /tmp/lsi
    build-dev/plainsql link --questions /tmp/lsi/questions.json --tables /tmp/lsi/tables.json --json > /tmp/lsi/s.jsonl
    build-dev/plainsql eval subsets --questions /tmp/lsi/questions.json --tables /tmp/lsi/tables.json \
        --subsets /tmp/lsi/s.jsonl

--abbreviate SEED abbreviates the borrowed columns' names as bench/cryptic_copies.py does (an ERP's cryptic wide table).
"""
import argparse
import json
import os
import random
import re
import sys
import zlib

from cryptic_copies import abbreviate as abbreviated_name

WORDNET = "/usr/share/wordnet"  # Debian's wordnet-base (scripts/install-deps.sh installs it)
GENERIC = {"id", "name", "code", "type", "date", "number", "num", "no", "of", "the"}


def wordnet_synonyms():
    """Lemma -> the lemmas sharing a synset with it, read from WordNet's index files (multiword lemmas joined by _)."""
    members, senses = {}, {}
    for pos in ("noun", "verb", "adj", "adv"):
        path = os.path.join(WORDNET, "index." + pos)
        if not os.path.exists(path):
            sys.exit(f"l_standin.py: {path} is missing (apt-get install wordnet-base)")
        for line in open(path, encoding="latin-1"):
            if line.startswith(" "):
                continue
            f = line.split()
            count = int(f[2])
            offsets = [pos + o for o in f[len(f) - count:]]
            senses.setdefault(f[0], []).extend(offsets)
            for o in offsets:
                members.setdefault(o, set()).add(f[0])
    return lambda lemma: set().union(*(members[o] for o in senses.get(lemma, []))) | {lemma}


def abbreviates(short, long):
    """Whether `short` (three letters or more) could be written for `long`: its first letter, then its other letters
    in order (`fname` for `firstname`, `stuid` for `studentid`)."""
    if len(short) < 3 or len(short) >= len(long) or short[0] != long[0]:
        return False
    rest = iter(long[1:])
    return all(c in rest for c in short[1:])


def words(name):
    """The lower-case words of an identifier: split at _, spaces, digits and lower-to-upper steps."""
    return [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+", name)]


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("--questions", required=True, help="Spider-format questions of the databases to put together")
    a.add_argument("--tables", required=True, help="Spider tables.json holding those databases and the lenders")
    a.add_argument("--train", required=True, help="Spider train.json: the databases columns are borrowed from are its "
                   "databases that --questions does not ask about")
    a.add_argument("--out", required=True)
    a.add_argument("--columns", type=int, default=1500, help="close a group once it holds this many columns")
    a.add_argument("--min-width", type=int, default=100)
    a.add_argument("--max-width", type=int, default=300)
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--abbreviate", metavar="SEED", help="abbreviate the borrowed columns' names")
    args = a.parse_args()
    if not 0 < args.min_width <= args.max_width:
        sys.exit("l_standin.py: need 0 < --min-width <= --max-width")

    questions = json.load(open(args.questions))
    schemas = {s["db_id"]: s for s in json.load(open(args.tables))}
    asked = sorted({q["db_id"] for q in questions}, key=lambda d: zlib.crc32(d.encode()))
    missing = [d for d in asked if d not in schemas]
    if missing:
        sys.exit(f"l_standin.py: not in {args.tables}: {', '.join(missing)}")
    lenders = sorted({q["db_id"] for q in json.load(open(args.train))} - set(asked))
    pool = []
    for d in lenders:
        s = schemas.get(d)
        if not s:
            continue
        keys = {i for k in s["primary_keys"] for i in (k if isinstance(k, list) else [k])}
        keys |= {i for fk in s["foreign_keys"] for i in fk}
        for i, (t, name) in enumerate(s["column_names_original"]):
            if t >= 0 and i not in keys:
                pool.append((abbreviated_name(name, args.abbreviate) if args.abbreviate else name,
                             s["column_types"][i]))
    if not pool:
        sys.exit("l_standin.py: no training database is left to borrow columns from")
    rng = random.Random(args.seed)
    synonyms = wordnet_synonyms()

    def meanings(own_names):
        """Per own column name: its letters, the WordNet synonyms of the whole name, and of each of its words."""
        out = []
        for own in own_names:
            theirs = words(own)
            near = set().union(*(synonyms(w) for w in theirs)) if theirs else set()
            out.append(("".join(theirs), synonyms("_".join(theirs)), near))
        return out

    def says_again(borrowed, own_meanings):
        """Whether a borrowed name means what one of the table's own columns (original or natural name) means: one
        name's letters abbreviate the other's, the whole name is a WordNet synonym of the column's, or each of its words
        (but generic ones) is one of the column's words or their synonyms. A real wide table does not name one thing
        twice; a stand-in that does is harder than the thing it stands for."""
        split = words(borrowed)
        letters, whole = "".join(split), "_".join(split)
        mine = [w for w in split if w not in GENERIC]
        for theirs, whole_synonyms, near in own_meanings:
            if abbreviates(theirs, letters) or abbreviates(letters, theirs) or whole in whole_synonyms:
                return True
            if mine and all(w in near for w in mine):
                return True
        return False

    def most_read(db):
        """The table the database's gold queries read most, among those no `*` of a gold query may read (a star
        would make every borrowed column gold)."""
        s, reads, starred = schemas[db], {}, set()
        for q in questions:
            if q["db_id"] != db:
                continue
            star = re.search(r"\*", re.sub(r"count\s*\(\s*\*\s*\)", "", q["query"], flags=re.I))
            for ti, t in enumerate(s["table_names_original"]):
                if re.search(r"\b" + re.escape(t) + r"\b", q["query"], re.I):
                    reads[ti] = reads.get(ti, 0) + 1
                    if star:
                        starred.add(ti)
        eligible = [ti for ti in reads if ti not in starred]
        return max(eligible, key=lambda ti: (reads[ti], -ti)) if eligible else None

    def widened(db):
        """The database's tables as (name, [(column, type)], primary key columns), its most read table widened."""
        s = schemas[db]
        tables = [(t, [], []) for t in s["table_names_original"]]
        primary = {i for k in s["primary_keys"] for i in (k if isinstance(k, list) else [k])}
        for i, (t, name) in enumerate(s["column_names_original"]):
            if t >= 0:
                tables[t][1].append((name, s["column_types"][i]))
                if i in primary:
                    tables[t][2].append(name)
        wide = most_read(db)
        if wide is None:
            return tables
        own = {c.lower() for c, _ in tables[wide][1]}
        own_meanings = meanings([c for c, _ in tables[wide][1]] + [n for t, n in s["column_names"] if t == wide])
        width = rng.randint(args.min_width, args.max_width)
        fresh = {n: not says_again(n, own_meanings) for n in {n for n, _ in pool}}
        lendable = [(n, t) for n, t in pool if fresh[n]]
        if len(own | {n.lower() for n, _ in lendable}) < width:
            sys.exit(f"l_standin.py: {db}.{tables[wide][0]} cannot be widened to {width} columns (lower --max-width)")
        columns = list(tables[wide][1])
        while len(own) < width:
            name, typ = rng.choice(lendable)
            if name.lower() not in own:
                own.add(name.lower())
                columns.insert(rng.randint(0, len(columns)), (name, typ))  # borrowed ones among the table's own
        tables[wide] = (tables[wide][0], columns, tables[wide][2])
        return tables

    groups, current, names, size = [], [], set(), 0
    for db in asked:
        tables = widened(db)
        clash = {t.lower() for t, _, _ in tables} & names
        if current and (clash or size >= args.columns):
            groups.append(current)
            current, names, size = [], set(), 0
        current.append((db, tables))
        names |= {t.lower() for t, _, _ in tables}
        size += sum(len(c) for _, c, _ in tables)
    if current:
        groups.append(current)

    out_tables, group_of = [], {}
    for g, members in enumerate(groups):
        gid = f"lsi_{g}"
        entry = {"db_id": gid, "table_names_original": [], "table_names": [], "column_names_original": [[-1, "*"]],
                 "column_names": [[-1, "*"]], "column_types": ["text"], "primary_keys": [], "foreign_keys": []}
        for db, tables in members:
            group_of[db] = gid
            for name, columns, primary in tables:
                ti = len(entry["table_names_original"])
                entry["table_names_original"].append(name)
                entry["table_names"].append(name.replace("_", " ").lower())
                for c, typ in columns:
                    if c in primary:
                        entry["primary_keys"].append(len(entry["column_names_original"]))
                    entry["column_names_original"].append([ti, c])
                    entry["column_names"].append([ti, c.replace("_", " ").lower()])
                    entry["column_types"].append(typ)
        out_tables.append(entry)
    os.makedirs(args.out, exist_ok=True)
    json.dump(out_tables, open(os.path.join(args.out, "tables.json"), "w"))
    out_questions = [dict(q, db_id=group_of[q["db_id"]], source_db=q["db_id"]) for q in questions]
    json.dump(out_questions, open(os.path.join(args.out, "questions.json"), "w"), indent=1)
    sizes = sorted(len(t["column_names_original"]) - 1 for t in out_tables)
    print(f"{len(asked)} databases in {len(out_tables)} schemas of {sizes[0]}-{sizes[-1]} columns "
          f"(tables {min(len(t['table_names_original']) for t in out_tables)}-"
          f"{max(len(t['table_names_original']) for t in out_tables)}), no foreign keys; {len(out_questions)} "
          f"questions; written to {args.out}")


if __name__ == "__main__":
    main()
