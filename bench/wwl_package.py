#!/usr/bin/env python3
"""Runs the Python wwl package (BorgwardtLab/WWL, Togninalli et al. 2019) on the schema graphs of a tables.json, for
bench/run_wwl.sh's side-by-side timing: the same graphs as tests/examples/wwl_reference.py builds, as igraph graphs
whose categorical 'label' attribute is the node label, through wwl.pairwise_wasserstein_distance with 3 iterations.

    PYTHONPATH=WWL_SRC wwl_package.py TABLES_JSON      prints {"dbs": [...], "distances": [[...]]}

WWL_SRC is a folder holding the package's wwl/ directory (see bench/run_wwl.sh for how it was obtained).
"""
import json
import logging
import os
import sys

import igraph as ig
import ot
from scipy.spatial.distance import cdist

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "examples"))
from wwl_reference import ITERATIONS, build_graph  # noqa: E402

import wwl  # noqa: E402

_pot_dist = ot.dist


def _dist(x1, x2=None, metric="sqeuclidean", **kwargs):
    """ot.dist as POT 0.8.2 computes it, minus the w=None it hands scipy's cdist, which scipy >= 1.10 rejects for
    metric='hamming' (AttributeError: 'NoneType' object has no attribute 'ndim'). The same cdist call otherwise."""
    if metric == "hamming" and x2 is not None and not kwargs:
        return cdist(x1, x2, metric="hamming")
    return _pot_dist(x1, x2, metric=metric, **kwargs)



def main():
    if len(sys.argv) != 2:
        sys.exit("usage: wwl_package.py TABLES_JSON")
    ot.dist = _dist  # the package calls ot.dist at run time
    logging.disable(logging.INFO)  # the package logs which propagation scheme it picked
    with open(sys.argv[1], encoding="utf-8") as f:
        entries = json.load(f)
    graphs = []
    for entry in entries:
        labels, edges = build_graph(entry)
        g = ig.Graph(n=len(labels), edges=sorted(edges))
        g.vs["label"] = labels
        graphs.append(g)
    distances = wwl.pairwise_wasserstein_distance(graphs, num_iterations=ITERATIONS)
    json.dump({"dbs": [e["db_id"] for e in entries], "distances": distances.tolist()}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
