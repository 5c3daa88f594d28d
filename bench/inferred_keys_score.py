#!/usr/bin/env python3
"""Foreign keys inferred from names alone against the declared ones, on Spider train's databases (issue #18,
twenty-fifth part, docs/BENCHMARKS.md): each inferred single-column foreign key counts as correct when the declared
key of that column references the same table. Only databases of train.json that dev.json does not use are counted.

    # one question per database, so `link` loads each schema once and prints its inferred keys on standard error
    python3 bench/inferred_keys_score.py first-questions --questions ../shared/data/spider/train.json --out /tmp/one.json
    build-dev/plainsql link --tables ../shared/data/spider/tables.json --questions /tmp/one.json --json \\
        --infer-keys=replace 2> /tmp/keys.txt > /dev/null
    python3 bench/inferred_keys_score.py schemas --spider ../shared/data/spider --keys /tmp/keys.txt

    # the same databases merged into the haystack (`plainsql eval haystack --out /tmp/hs`)
    python3 bench/inferred_keys_score.py first-questions --questions /tmp/hs/questions_spider_dev.json --out /tmp/h1.json
    build-dev/plainsql link --tables /tmp/hs/tables.json --questions /tmp/h1.json --json --infer-keys=replace \\
        2> /tmp/hkeys.txt > /dev/null
    python3 bench/inferred_keys_score.py merged --spider ../shared/data/spider --haystack /tmp/hs --keys /tmp/hkeys.txt
"""
import argparse
import json
import os
import re

KEY = re.compile(r"^(\S+): inferred foreign key (.*)\((.*)\) -> (.*)\((.*)\)$")


def train_databases(spider):
    train = {q["db_id"] for q in json.load(open(os.path.join(spider, "train.json")))}
    dev = {q["db_id"] for q in json.load(open(os.path.join(spider, "dev.json")))}
    return train - dev


def inferred(path):
    """(db_id, table, column) -> referenced table, lower case; composite keys left out."""
    out = {}
    for line in open(path):
        m = KEY.match(line.strip())
        if m and "," not in m.group(3):
            out[(m.group(1), m.group(2).lower(), m.group(3).lower())] = m.group(4).lower()
    return out


def declared(entry):
    """(table, column) -> referenced table, lower case, of one tables.json entry."""
    tables, columns = entry["table_names_original"], entry["column_names_original"]
    return {(tables[columns[a][0]].lower(), columns[a][1].lower()): tables[columns[b][0]].lower()
            for a, b in entry["foreign_keys"]}


def report(name, gold, found):
    correct = sum(1 for k, t in found.items() if gold.get(k) == t)
    print(f"{name}: declared {len(gold)}, inferred {len(found)}, correct {correct}, "
          f"precision {correct / max(1, len(found)):.3f}, recall {correct / max(1, len(gold)):.3f}")


def first_questions(args):
    seen, out = set(), []
    for q in json.load(open(args.questions)):
        if q["db_id"] not in seen:
            seen.add(q["db_id"])
            out.append(q)
    json.dump(out, open(args.out, "w"))
    print(f"{len(out)} questions written to {args.out}")


def schemas(args):
    keep = train_databases(args.spider)
    gold = {}
    for entry in json.load(open(os.path.join(args.spider, "tables.json"))):
        if entry["db_id"] in keep:
            gold.update({(entry["db_id"],) + k: t for k, t in declared(entry).items()})
    found = {k: t for k, t in inferred(args.keys).items() if k[0] in keep}
    report("Spider train's databases one at a time", gold, found)


def merged(args):
    keep = train_databases(args.spider)
    prefixes = json.load(open(os.path.join(args.haystack, "manifest.json")))["prefixes"]
    prefix = {db.split("/", 1)[1]: p.lower() for db, p in prefixes.items()
              if db.startswith("spider/") and db.split("/", 1)[1] in keep}
    all_prefixes = sorted((p.lower() for p in prefixes.values()), key=len, reverse=True)

    def database(table):  # the longest prefix a merged table's name begins with
        return next((p for p in all_prefixes if table.startswith(p)), None)

    kept = set(prefix.values())
    entry = json.load(open(os.path.join(args.haystack, "tables.json")))[0]
    gold = {k: t for k, t in declared(entry).items() if database(k[0]) in kept}
    found = {k[1:]: t for k, t in inferred(args.keys).items() if database(k[1]) in kept}
    report("Spider train's databases merged", gold, found)
    across = sum(1 for k, t in found.items() if database(t) != database(k[0]))
    print(f"inferred keys joining two databases: {across} of {len(found)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    f = sub.add_parser("first-questions", help="the first question of each database of a questions file")
    f.add_argument("--questions", required=True)
    f.add_argument("--out", required=True)
    s = sub.add_parser("schemas", help="score keys inferred on each Spider schema alone")
    s.add_argument("--spider", required=True, help="../shared/data/spider")
    s.add_argument("--keys", required=True, help="the standard error of `plainsql link --infer-keys=replace`")
    m = sub.add_parser("merged", help="score keys inferred on the haystack")
    m.add_argument("--spider", required=True, help="../shared/data/spider")
    m.add_argument("--haystack", required=True, help="a folder written by `plainsql eval haystack`")
    m.add_argument("--keys", required=True, help="the standard error of `plainsql link --infer-keys=replace`")
    args = ap.parse_args()
    {"first-questions": first_questions, "schemas": schemas, "merged": merged}[args.command](args)


if __name__ == "__main__":
    main()
