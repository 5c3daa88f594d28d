#!/usr/bin/env python3
"""Independent reference for the WWL schema distance of issue #17 item 4, written from the definition alone.

It shares no code with src/examples: graphs are built straight from a Spider-layout tables.json (column indexes, not
the C++ catalog), WL labels are compressed with one dictionary per iteration shared by all graphs (not hashed), and
each distance is POT's exact earth mover's distance (ot.emd2) over the full node-by-node cost matrix (no merging of
identical embeddings). tests/examples/wwl_spider_test compares the C++ distances with its output.

    wwl_reference.py TABLES_JSON        prints {"dbs": [...], "distances": [[...]]}

Definition (issue #17 item 4): nodes are tables (label 1) and columns (label 3 for a primary-key column, else 4 for a
referencing column of a foreign key, else by type: text 5, number 6, time 7, boolean 8, anything else 9); undirected
simple edges table-column, referencing column-referenced column, table-table for a foreign key between two different
tables. WL with H = 3: a node's next label is its label with the sorted multiset of its neighbours' labels. A node's
embedding is its H+1 labels; the ground distance is the fraction of positions that differ; the distance is the EMD
with weight 1/|A| on each node of A and 1/|B| on each node of B. Two empty graphs are at 0, an empty and a non-empty
graph at 1.
"""
import json
import sys

import numpy as np
import ot

ITERATIONS = 3
TYPE_LABELS = {"text": 5, "number": 6, "time": 7, "boolean": 8}  # any other type word: 9


def build_graph(entry):
    """(labels, edges) of one tables.json entry: labels[i] of node i, edges a set of (i, j) pairs with i < j."""
    tables = entry["table_names_original"]
    columns = entry["column_names_original"]
    types = entry["column_types"]
    if len(types) + 1 == len(columns):  # a file that gives the "*" pseudo-column no type
        types = [None] + list(types)

    def node(k):  # node numbers: tables 0..T-1, then file column k (k >= 1; 0 is "*") at T + k - 1
        return len(tables) + k - 1

    primary = set()
    for key in entry["primary_keys"]:
        primary.update(key if isinstance(key, list) else [key])
    pairs = [(a, b) for a, b in entry["foreign_keys"] if a != 0 and b != 0]
    referencing = {a for a, _ in pairs}
    labels = [1] * len(tables)
    edges = set()

    def connect(i, j):
        if i != j:
            edges.add((min(i, j), max(i, j)))

    for k in range(1, len(columns)):
        table = columns[k][0]
        if k in primary:
            labels.append(3)
        elif k in referencing:
            labels.append(4)
        else:
            labels.append(TYPE_LABELS.get(types[k], 9))
        connect(table, node(k))
    for a, b in pairs:
        connect(node(a), node(b))
        connect(columns[a][0], columns[b][0])
    return labels, edges


def wl_embeddings(graphs):
    """For each graph, an array (nodes x ITERATIONS+1) of WL labels, compressed consistently across all graphs."""
    current = [list(labels) for labels, _ in graphs]
    adjacency = []
    for labels, edges in graphs:
        around = [[] for _ in labels]
        for i, j in edges:
            around[i].append(j)
            around[j].append(i)
        adjacency.append(around)
    columns = [[list(c)] for c in current]
    for _ in range(ITERATIONS):
        dictionary = {}
        nxt = []
        for labels, around in zip(current, adjacency):
            keys = [(labels[v], tuple(sorted(labels[u] for u in around[v]))) for v in range(len(labels))]
            nxt.append([dictionary.setdefault(key, len(dictionary)) for key in keys])
        current = nxt
        for c, labels in zip(columns, current):
            c.append(labels)
    return [np.array(c, dtype=np.int64).T.reshape(len(c[0]), ITERATIONS + 1) for c in columns]


def emd(x, y):
    """Exact EMD between two node sets (rows of x and y) with uniform weights and the normalized Hamming distance."""
    if len(x) == 0 or len(y) == 0:
        return 0.0 if len(x) == len(y) else 1.0
    cost = (x[:, None, :] != y[None, :, :]).mean(axis=2)
    # numItermax far above POT's default (100,000), which the largest Spider pairs would reach before the optimum.
    return float(ot.emd2(np.full(len(x), 1.0 / len(x)), np.full(len(y), 1.0 / len(y)), cost, numItermax=10**8))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: wwl_reference.py TABLES_JSON")
    with open(sys.argv[1], encoding="utf-8") as f:
        entries = json.load(f)
    embeddings = wl_embeddings([build_graph(e) for e in entries])
    n = len(entries)
    distances = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            distances[i][j] = distances[j][i] = emd(embeddings[i], embeddings[j])
    json.dump({"dbs": [e["db_id"] for e in entries], "distances": distances}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
