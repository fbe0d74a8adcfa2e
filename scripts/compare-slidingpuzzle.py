#!/usr/bin/env python3
"""`npuzzle.solve` against the `slidingpuzzle` package's A* (pure Python) on twenty 30-move
8-puzzle walks: the same optimal lengths, and the time per board (results/python.md).

`slidingpuzzle` is not a dependency: install it beside the package for this script only,

    pip install ./python slidingpuzzle
    python scripts/compare-slidingpuzzle.py [--count 20] [--moves 30] [--seed 1]
"""

import argparse
import statistics
import sys
import time

import npuzzle
import slidingpuzzle as sp


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--moves", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    boards = npuzzle.generate(3, 3, moves=args.moves, count=args.count, seed=args.seed)
    theirs, ours, same = [], [], 0
    for b in boards:
        t = time.perf_counter()
        r = sp.search(sp.from_rows(*b.tolist()), "a*", heuristic=sp.linear_conflict_distance)
        theirs.append(time.perf_counter() - t)
        t = time.perf_counter()
        s = npuzzle.solve(b, algorithm="astar", heuristic="linear-conflict")
        ours.append(time.perf_counter() - t)
        same += len(r.solution) == s.length
    med_t, med_o = statistics.median(theirs), statistics.median(ours)
    print(f"| boards | same length | slidingpuzzle A* + linear conflict, median per board | "
          f"npuzzle.solve A* + linear-conflict, median per board | ratio |")
    print("|---|---|---|---|---|")
    print(f"| {len(boards)} 3 x 3 walks of {args.moves} moves, seed {args.seed} | {same} of {len(boards)} | "
          f"{med_t * 1e3:.1f} ms | {med_o * 1e3:.3f} ms | {med_t / med_o:.0f} x |")
    return 0 if same == len(boards) else 1


if __name__ == "__main__":
    sys.exit(main())
