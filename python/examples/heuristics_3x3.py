#!/usr/bin/env python3
"""The README's 8-puzzle table from Python: mean nodes expanded per optimal solution depth,
A* and IDA* x misplaced / Manhattan / linear conflict, as results/heuristics-3x3.md has it
(made by scripts/heuristics-3x3.sh with `bench`), and its plot with matplotlib.

    pip install ./python pandas matplotlib
    python python/examples/heuristics_3x3.py [--per 100] [--seed 1] [--plot heuristics-3x3.png]

The instances are the script's (walks of 2, 4, ..., 40 moves, PER boards each, seed
SEED * 1000 + length; 10 * PER uniform boards, seed SEED); node counts do not depend on the
machine, so with the defaults every mean equals the published table's, which the script checks.
"""

import argparse
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

import npuzzle

REPO = Path(__file__).resolve().parents[2]


def instances(per, seed):
    sets = [npuzzle.generate(3, 3, moves=m, count=per, seed=seed * 1000 + m) for m in range(2, 41, 2)]
    sets.append(npuzzle.generate(3, 3, count=per * 10, seed=seed))
    return np.concatenate(sets)


def pivot(df):
    """Mean nodes expanded per optimal depth (the optimal algorithms' solution length) and
    algorithm/heuristic, as `bench report --pivot depth` groups them."""
    solved = df[df["status"] == "solved"].copy()
    solved["instance"] = solved["instance_id"].astype(int)
    depth = solved[solved["optimal"]].groupby("instance")["moves"].min()
    solved["depth"] = solved["instance"].map(depth)
    solved["pair"] = solved["algorithm"].astype(str) + "/" + solved["heuristic"].astype(str)
    table = solved.pivot_table(index="depth", columns="pair", values="nodes_expanded", aggfunc="mean")
    counts = solved.groupby("depth")["instance"].nunique()
    return table, counts


def published():
    """The table of results/heuristics-3x3.md, as numbers."""
    text = (REPO / "results/heuristics-3x3.md").read_text()
    lines = [l for l in text.split("## Mean nodes expanded")[1].split("\n## ")[0].splitlines() if l.startswith("|")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = [[c.strip() for c in l.strip("|").split("|")] for l in lines[2:]]
    return pd.DataFrame([[float(x) for x in r] for r in rows], columns=header).set_index("depth")


def agrees(ours, theirs):
    """Each published cell is ours rounded as `bench report` rounds (4 significant digits at
    most, one decimal)."""
    bad = []
    for depth, row in theirs.iterrows():
        for pair in theirs.columns.drop("instances"):
            mine = ours.loc[int(depth), pair]
            if not np.isclose(mine, row[pair], rtol=1e-3, atol=0.051):
                bad.append((int(depth), pair, mine, row[pair]))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plot", default="heuristics-3x3.png")
    args = ap.parse_args()

    boards = instances(args.per, args.seed)
    df = npuzzle.run(boards, algorithms=["astar", "idastar"], heuristics=["misplaced", "manhattan", "linear-conflict"],
                     timeout=60, seed=args.seed)
    table, counts = pivot(df)
    shown = table.copy()
    shown.insert(0, "instances", counts)
    print(shown.round(1).to_string())

    if (args.per, args.seed) == (100, 1):
        bad = agrees(table, published())
        print("matches results/heuristics-3x3.md" if not bad else f"differs from results/heuristics-3x3.md: {bad[:5]}")
        if bad:
            return 1

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for pair in table.columns:
        ax.plot(table.index, table[pair], marker="o" if pair.startswith("astar") else "s", ms=3, label=pair)
    ax.set_yscale("log")
    ax.set_xlabel("optimal solution length")
    ax.set_ylabel("mean nodes expanded")
    ax.set_title("8-puzzle: nodes by depth and heuristic (npuzzle from Python)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.plot, dpi=120)
    print(f"plot: {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
