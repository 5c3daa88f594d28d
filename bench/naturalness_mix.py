#!/usr/bin/env python3
"""A copy of a stand-in whose names are as natural as a target mix says, as plainsql's own classifier reads them.

The L-size stand-ins (bench/l_standin.py) keep the training databases' names: by `plainsql naturalness classify`
about 85 % of their distinct column names are Regular (N1), where SNAILS' L-size schemas' are about a third Regular,
half Low (N2) and a sixth Least (N3), and most of their tables are opaque codes (docs/BENCHMARKS.md, thirty-fourth
part). Our abbreviator's copies (bench/cryptic_copies.py) go the other way (about 80 % Least). This writes a stand-in
between them whose mix is chosen:

- each distinct column name of a schema draws a target level from --mix (shares of N1, N2, N3; from a CRC-32 of the
  seed, the schema and the name, so a run is repeatable); a name the classifier already reads at a less natural level
  is kept (so the realized mix, printed, is less natural than the draw: the default draw gives SNAILS' L-size mix);
- otherwise candidates for the level are written (Low: words cut to four letters or to their consonants and written
  together, "CntctPrsn", "cntct_prsn", or glued, "mailaddress"; Least: initials, two or three letters a word, our
  abbreviator's styles), in the schema's case style (CamelCase, lower snake case or upper case run together, drawn per schema), all of them
  classified in one call, and the first whose label is the target is taken (else the one most likely at it);
- a share of the schemas (--opaque-share) get opaque table codes ("O" and three capitals, as bench/opaque_tables.py
  writes them); the other schemas' tables draw a level as columns do;
- two columns of one table, or two tables, given one name keep their native names (as bench/cryptic_copies.py does).

Each gold query is rewritten by `plainsql translate` with the schema's crosswalk (written beside the copy); a query
that cannot be rewritten is left out and counted. Keys are kept. The realized mix is printed.

  python3 bench/naturalness_mix.py --plainsql build-dev/plainsql --standin /tmp/lsi --out /tmp/lsmix1 --seed 1
  build-dev/plainsql link --questions /tmp/lsmix1/questions.json --tables /tmp/lsmix1/tables.json --json > S
  build-dev/plainsql eval subsets --questions /tmp/lsmix1/questions.json --tables /tmp/lsmix1/tables.json --subsets S
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import zlib

from cryptic_copies import abbreviate as least_style, skeleton, split_words
from opaque_tables import codes as opaque_codes, rewritten_questions, write_crosswalk

LEVELS = ("N1", "N2", "N3")
# Names the gold queries could not carry unquoted; a candidate that is one is skipped.
RESERVED = {
    "all", "and", "as", "asc", "between", "by", "case", "cast", "check", "collate", "create", "cross", "default", "desc",
    "distinct", "drop", "else", "end", "escape", "except", "exists", "foreign", "from", "glob", "group", "having", "in",
    "index", "inner", "intersect", "into", "is", "join", "key", "left", "like", "limit", "match", "natural", "not",
    "null", "of", "offset", "on", "or", "order", "outer", "primary", "references", "right", "select", "set", "table",
    "then", "to", "union", "using", "values", "when", "where", "with",
}


def draw(*parts):
    return zlib.crc32(":".join(str(p) for p in parts).encode())


def styled(pieces, case):
    """Pieces written in a schema's case style: CamelCase (an ERP's "CntctPrsn"), lower snake case ("cntct_prsn") or
    upper case run together (a mainframe's "CNTCTPRSN")."""
    pieces = [p for p in pieces if p]
    if case == "camel":
        return "".join(p[0].upper() + p[1:].lower() if not p.isdigit() else p for p in pieces)
    if case == "upper":
        return "".join(p.upper() for p in pieces)
    return "_".join(p.lower() for p in pieces)


def cut(word, n):
    return word if len(word) <= n or word.isdigit() else word[:n]


def low_candidates(words, case, h):
    """Names a reader still half-reads: words cut short, or without their vowels, or glued together."""
    out = []
    for limit in (4, 5, 3):  # every word over the limit cut to it ("Cust", "Addr")
        out.append(styled([cut(w, limit) for w in words], case))
    out.append(styled([skeleton(w) if len(w) > 3 else w for w in words], case))  # "CntctPrsn"
    out.append(styled([skeleton(w)[:5] if len(w) > 4 else w for w in words], case))
    longest = max(range(len(words)), key=lambda i: len(words[i]))
    for short in (cut(words[longest], 4), skeleton(words[longest])):  # one word short, the others whole ("MailAddr")
        out.append(styled(words[:longest] + [short] + words[longest + 1:], case))
    if len(words) > 1:
        glued = "".join(w.lower() for w in words)  # "mailaddress"
        out.append(glued.upper() if case == "upper" else glued.capitalize() if case == "camel" else glued)
        # the last word whole, the others cut ("CustName", "acct_type")
        out.append(styled([cut(w, 4) for w in words[:-1]] + [words[-1]], case))
    return rotate(out, h)


def least_candidates(name, words, case, seed, h):
    """Names a reader cannot read without help: initials, two letters a word, our abbreviator's styles."""
    out = []
    if len(words) > 1:
        out.append("".join(w[0] if not w.isdigit() else w for w in words).upper())  # "CP"
        out.append(styled([cut(w, 2) for w in words], case))
    out.append(styled([skeleton(w)[:3] if not w.isdigit() else w for w in words], case))
    out.append(styled([cut(w, 3) for w in words], case))
    ours = least_style(name, seed)  # "Stdn_Nm": written in the schema's style
    out.append(ours.upper().replace("_", "") if case == "upper" else ours.lower() if case == "snake" else
               ours.replace("_", ""))
    return rotate(out, h)


def rotate(items, h):
    """The candidates in an order drawn per name, so no style always wins."""
    seen, unique = set(), []
    for x in items:
        if x and x.lower() not in seen:
            seen.add(x.lower())
            unique.append(x)
    k = h % len(unique) if unique else 0
    return unique[k:] + unique[:k]


def classify(plainsql, names):
    """Label and per-level probabilities of each name, by `plainsql naturalness classify` (one call)."""
    names = sorted(set(names))
    run = subprocess.run([plainsql, "naturalness", "classify"], input="\n".join(names) + "\n", capture_output=True,
                         text=True)
    if run.returncode != 0:
        sys.exit(f"naturalness_mix.py: plainsql naturalness classify failed: {run.stderr.strip()}")
    out = {}
    for line in run.stdout.splitlines()[1:]:
        name, label, *p = line.rsplit(",", 4)
        out[name] = (label, [float(x) for x in p])
    return out


def target_level(mix, *parts):
    u = draw(*parts) % 10000 / 10000
    for level, share in zip(LEVELS, mix):
        if u < share:
            return level
        u -= share
    return LEVELS[-1]


def choose(native, level, candidates, labels):
    """The first candidate the classifier reads at `level` (else the likeliest at it); the native name when it is
    already read at a less natural level. A Regular name is only written in the schema's case style, if still read so."""
    if level == "N1":
        restyled = candidates[0] if candidates else ""
        ok = restyled and restyled in labels and labels[restyled][0] == "N1" and restyled.lower() not in RESERVED
        return restyled if ok else native
    if LEVELS.index(labels[native][0]) >= LEVELS.index(level):
        return native
    i = LEVELS.index(level)
    usable = [c for c in candidates if c in labels and c.lower() not in RESERVED and c.lower() != native.lower()]
    for c in usable:
        if labels[c][0] == level:
            return c
    return max(usable, key=lambda c: labels[c][1][i]) if usable else native


def renamed_schema(d, args, labels_of):
    """(table names, column-name crosswalk) for one schema."""
    db = d["db_id"]
    case = ("camel", "snake", "upper")[draw(args.seed, db, "case") % 3]
    opaque = draw(args.seed, db, "opaque") % 10000 < args.opaque_share * 10000
    # SQL reads names without case: `Name` and `name` are one name, renamed alike (the first spelling draws).
    spellings = collections.defaultdict(list)
    for t, c in d["column_names_original"]:
        if t >= 0 and c not in spellings[c.lower()]:
            spellings[c.lower()].append(c)
    columns = [v[0] for v in spellings.values()]
    tables = list(d["table_names_original"])
    plans = {}
    for kind, names, mix in (("column", columns, args.mix), ("table", [] if opaque else tables, args.table_mix)):
        for n in names:
            level = target_level(mix, args.seed, db, kind, n)
            words = split_words(n) or [n]
            h = draw(args.seed, db, kind, n, "style")
            cands = low_candidates(words, case, h) if level == "N2" else (
                least_candidates(n, words, case, args.seed, h) if level == "N3" else [styled(words, case)])
            plans[(kind, n)] = (level, cands)
    labels = labels_of([n for (_, n) in plans] + [c for _, cs in plans.values() for c in cs])
    col_map = {}
    for n in columns:
        level, cands = plans[("column", n)]
        new = choose(n, level, cands, labels)
        for spelling in spellings[n.lower()]:
            col_map[spelling] = spelling if new == n else new
    if opaque:
        table_names = opaque_codes(db, tables)
    else:
        table_names = []
        for n in tables:
            level, cands = plans[("table", n)]
            table_names.append(choose(n, level, cands, labels))
    resolve(d, col_map, table_names)
    return table_names, col_map


def resolve(d, col_map, table_names):
    """Two columns of one table, or two tables, with one name: the later keeps its native name, until none clash."""
    by_table = collections.defaultdict(list)
    for t, c in d["column_names_original"]:
        if t >= 0:
            by_table[t].append(c)
    changed = True
    while changed:
        changed = False
        for cols in by_table.values():
            seen = set()
            for c in cols:
                new = col_map[c].lower()
                if new in seen and new != c.lower():
                    for spelling in [x for x in col_map if x.lower() == c.lower()]:
                        col_map[spelling] = spelling
                    changed = True
                    break
                seen.add(new)
            if changed:
                break
    natives = d["table_names_original"]
    seen = set()
    for i, n in enumerate(table_names):
        if n.lower() in seen or (n != natives[i] and n.lower() in {x.lower() for x in natives if x != natives[i]}):
            table_names[i] = natives[i]
        seen.add(table_names[i].lower())


def parse_mix(text, option):
    try:
        mix = [float(x) for x in text.split(",")]
    except ValueError:
        mix = []
    if len(mix) != 3 or min(mix) < 0 or abs(sum(mix) - 1) > 1e-6:
        sys.exit(f"naturalness_mix.py: {option} takes three shares of N1,N2,N3 summing to 1 (got {text!r})")
    return mix


def realized(tables, labels_of):
    names_t, names_c = [], []
    for d in tables:
        names_t += d["table_names_original"]
        names_c += sorted({c for t, c in d["column_names_original"] if t >= 0})
    labels = labels_of(names_t + names_c)

    def shares(names):
        count = collections.Counter(labels[n][0] for n in names)
        return ", ".join(f"{lv} {count[lv] / max(1, len(names)):.2f}" for lv in LEVELS)

    return f"tables {shares(names_t)}; distinct column names per schema {shares(names_c)}"


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("--plainsql", required=True, help="the plainsql binary (classifies names, rewrites gold queries)")
    a.add_argument("--standin", required=True, help="a folder with tables.json and questions.json")
    a.add_argument("--out", required=True)
    a.add_argument("--mix", default="0.36,0.58,0.06", help="shares of N1,N2,N3 drawn for the column names (default: "
                   "drawn so that the held-out stand-in's names come out as SNAILS' L-size schemas' do, about "
                   "0.33 / 0.49 / 0.18: some names are already Low or Least, and some Low candidates all read Least)")
    a.add_argument("--table-mix", default="0.33,0.50,0.17", help="shares of N1,N2,N3 for the tables of schemas "
                   "whose tables are not opaque")
    a.add_argument("--opaque-share", type=float, default=0.5, help="share of schemas whose tables get opaque codes")
    a.add_argument("--seed", type=int, default=1)
    args = a.parse_args()
    args.mix = parse_mix(args.mix, "--mix")
    args.table_mix = parse_mix(args.table_mix, "--table-mix")
    if not 0 <= args.opaque_share <= 1:
        sys.exit("naturalness_mix.py: --opaque-share is a share between 0 and 1")
    tables = json.load(open(os.path.join(args.standin, "tables.json")))
    questions = json.load(open(os.path.join(args.standin, "questions.json")))
    cache = {}

    def labels_of(names):
        todo = [n for n in set(names) if n not in cache]
        if todo:
            cache.update(classify(args.plainsql, todo))
        return cache

    os.makedirs(os.path.join(args.out, "crosswalks"), exist_ok=True)
    source = os.path.join(args.standin, "tables.json")
    for d in tables:
        table_names, col_map = renamed_schema(d, args, labels_of)
        rows = [(native, "table", new) for native, new in zip(d["table_names_original"], table_names)]
        rows += [(native, "column", new) for native, new in sorted(col_map.items())]
        write_crosswalk(os.path.join(args.out, "crosswalks", d["db_id"] + ".csv"), d["db_id"], rows)
        d["_new"] = (table_names, col_map)
    kept, failed = rewritten_questions(args.plainsql, source, questions, os.path.join(args.out, "crosswalks"))
    for d in tables:
        table_names, col_map = d.pop("_new")
        d["table_names_original"] = table_names
        # The labels are the names themselves, as in SNAILS' tables files: the natural labels would give them away.
        d["table_names"] = list(table_names)
        d["column_names_original"] = [[t, col_map.get(c, c) if t >= 0 else c] for t, c in d["column_names_original"]]
        d["column_names"] = [list(x) for x in d["column_names_original"]]
    json.dump(tables, open(os.path.join(args.out, "tables.json"), "w"))
    json.dump(kept, open(os.path.join(args.out, "questions.json"), "w"), indent=1)
    print(f"{len(tables)} schemas; {len(kept)} questions kept, {failed} whose gold query could not be rewritten; "
          f"{realized(tables, labels_of)}; written to {args.out}")
    return 0 if kept else 1


if __name__ == "__main__":
    sys.exit(main())
