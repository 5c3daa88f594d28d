#!/usr/bin/env python3
"""A large questions file made from a small one (issue #17's scale bar): Spider questions replicated with perturbed
questions until there are N, every (db_id, question, query) distinct, written as a Spider-style JSON list of
{"db_id", "question", "query"} objects (what `plainsql examples build --benchmark spider --questions` reads).

  replicate_questions.py SPIDER_JSON N OUT_JSON

The first pass keeps each question as it is; every later copy perturbs it as bench/examples_quality --scale does (a
word dropped, two neighbouring words swapped, or a common word put in), again and again until the text is new, so
that the store holds N examples, not N minus duplicates. Deterministic: the perturbations come from a fixed-seed
SplitMix64 generator (not Python's `random`, whose algorithms may change), so the same input and N give the same
bytes on any Python 3; the file's SHA-256 is printed (compare with sha256sum). Standard library only.
"""
import hashlib
import json
import sys

SEED = 17
FILLERS = ["all", "the", "each", "please", "also", "different", "total", "those"]
MASK64 = (1 << 64) - 1


class SplitMix64:
    """Sebastiano Vigna's SplitMix64: a tiny generator whose output is fixed by its seed."""

    def __init__(self, seed):
        self.state = seed & MASK64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n


def perturb(words, rng):
    """One perturbation of a list of words, in place (it may leave the words as they were: the caller tries again)."""
    at = rng.below(len(words))
    kind = rng.below(3)
    if kind == 0:
        if len(words) > 2:
            del words[at]
    elif kind == 1:
        if at + 1 < len(words):
            words[at], words[at + 1] = words[at + 1], words[at]
    else:
        words.insert(at, FILLERS[rng.below(len(FILLERS))])


def key(db_id, question, query):
    return hashlib.blake2b("\0".join((db_id, question, query)).encode(), digest_size=16).digest()


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: replicate_questions.py SPIDER_JSON N OUT_JSON")
    source, n, out_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(source, encoding="utf-8") as f:
        base = [(q["db_id"], q["question"], q["query"]) for q in json.load(f)]
    if not base or n < 1:
        sys.exit("replicate_questions: nothing to replicate, or N < 1")
    rng = SplitMix64(SEED)
    seen = set()
    digest = hashlib.sha256()
    with open(out_path, "w", encoding="utf-8") as out:
        out.write("[\n")
        digest.update(b"[\n")
        for i in range(n):
            db_id, question, query = base[i % len(base)]
            words = question.split(" ")
            text = question
            while key(db_id, text, query) in seen:
                perturb(words, rng)
                text = " ".join(words)
            seen.add(key(db_id, text, query))
            line = json.dumps({"db_id": db_id, "question": text, "query": query}, ensure_ascii=False)
            line += ",\n" if i + 1 < n else "\n"
            out.write(line)
            digest.update(line.encode("utf-8"))
        out.write("]\n")
        digest.update(b"]\n")
    print(f"{out_path}: {n} questions from {len(base)} in {source}; sha256 {digest.hexdigest()}")


if __name__ == "__main__":
    main()
