#!/usr/bin/env python3
"""Timings of the Python package (results/python.md): the per-call overhead of `solve`, the
cost of one call of a heuristic written in Python, and `run` from Python against `bench run`
on the same batch.

Run it with the package installed (scripts/test-python.sh builds one; or
`pip install ./python`), from the repository root:

    python scripts/bench-python.py [--bench target/release/bench] [--skip-run | --only-run] [--pairs 7]

Prints one Markdown table row per figure.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import npuzzle


def best_of(f, repeat=5):
    """The fastest of `repeat` timings of f() (each returns seconds), the usual timeit rule."""
    return min(f() for _ in range(repeat))


def per_call(f, n):
    def once():
        t = time.perf_counter()
        for _ in range(n):
            f()
        return (time.perf_counter() - t) / n

    return best_of(once)


def manhattan(board):
    rows, cols = board.shape
    total = 0
    for r in range(rows):
        for c in range(cols):
            t = int(board[r, c])
            if t:
                total += abs(r - (t - 1) // cols) + abs(c - (t - 1) % cols)
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", default="target/release/bench")
    ap.add_argument("--skip-run", action="store_true")
    ap.add_argument("--only-run", action="store_true", help="only the run comparison")
    ap.add_argument("--pairs", type=int, default=7, help="bench run / npuzzle.run pairs")
    args = ap.parse_args()
    if args.only_run:
        return compare_run(Path(args.bench), args.pairs)

    solved = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 0]]
    solved_np = np.array(solved, dtype=np.uint8)
    print("| what | figure |")
    print("|---|---|")
    for label, board in (("nested list", solved), ("numpy uint8 array", solved_np)):
        s = per_call(lambda: npuzzle.solve(board), 20000)
        print(f"| `solve` on the solved 4 x 4 board ({label}), per call | {s * 1e6:.1f} us |")
    s = per_call(lambda: npuzzle.solve(solved, algorithm="idastar", heuristic="manhattan"), 20000)
    print(f"| `solve(..., algorithm='idastar', heuristic='manhattan')`, solved 4 x 4, per call | {s * 1e6:.1f} us |")

    # A Python heuristic: the cost of one call, from a search of a fixed node budget.
    board = npuzzle.generate(4, 4, moves=60, count=1, seed=1)[0]
    nodes = 20000
    zero = best_of(lambda: timed(lambda: npuzzle.solve(board, algorithm="idastar", heuristic=lambda b: 0, max_nodes=nodes)), 3)
    builtin = best_of(lambda: timed(lambda: npuzzle.solve(board, algorithm="idastar", heuristic="none", max_nodes=nodes)), 3)
    print(f"| Python heuristic `lambda b: 0`, IDA*, per call (generated node) | {(zero - builtin) / nodes * 1e6:.2f} us |")
    walk = npuzzle.generate(4, 4, moves=40, count=1, seed=2)[0]
    r_py = npuzzle.solve(walk, algorithm="astar", heuristic=manhattan)
    t_py = best_of(lambda: timed(lambda: npuzzle.solve(walk, algorithm="astar", heuristic=manhattan)), 3)
    t_rs = best_of(lambda: timed(lambda: npuzzle.solve(walk, algorithm="astar", heuristic="manhattan")), 3)
    calls = r_py.nodes_generated + 1
    print(
        f"| Manhattan written in Python, A* on a 40-move 4 x 4 walk ({r_py.nodes_generated} nodes, "
        f"same as built-in), per call | {t_py / calls * 1e6:.2f} us (built-in: whole search "
        f"{t_rs * 1e3:.2f} ms, Python {t_py * 1e3:.1f} ms) |"
    )

    if not args.skip_run:
        compare_run(Path(args.bench), args.pairs)


def timed(f):
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def cpu_seconds(who):
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def compare_run(bench, pairs):
    """The design card's batch (results/performance.md): 1000 4 x 4 walks of 20 moves, seed 1,
    astar,idastar,bfs + manhattan, 2 threads. `bench run` (a child process, CSV to a pipe
    thrown away) and `npuzzle.run` (in this process, CSV to a file read back into a DataFrame)
    in turn, `pairs` times; wall and CPU seconds (user + system, all threads) of each, the
    ratio taken pair by pair."""
    with tempfile.TemporaryDirectory() as tmp:
        card = Path(tmp) / "card.txt"
        npuzzle.generate(4, 4, moves=20, count=1000, seed=1, out=card)
        cmd = [str(bench), "run", "--instances", str(card), "--algos", "astar,idastar,bfs",
               "--heuristics", "manhattan", "--seed", "1", "--threads", "2", "--quiet", "--out", "-"]
        wall, cpu = [], []
        for i in range(pairs):
            c0, w0 = cpu_seconds(resource.RUSAGE_CHILDREN), time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
            c1, w1 = cpu_seconds(resource.RUSAGE_CHILDREN), time.perf_counter()
            out = Path(tmp) / f"py{i}.csv"
            p0 = cpu_seconds(resource.RUSAGE_SELF)
            npuzzle.run(card, algorithms=["astar", "idastar", "bfs"], heuristics="manhattan",
                        seed=1, threads=2, out=out, progress=False)
            p1, w2 = cpu_seconds(resource.RUSAGE_SELF), time.perf_counter()
            wall.append((w2 - w1, w1 - w0))
            cpu.append((p1 - p0, c1 - c0))
            print(f"pair {i + 1}: wall Python {w2 - w1:.2f} s / bench {w1 - w0:.2f} s, "
                  f"cpu {p1 - p0:.2f} s / {c1 - c0:.2f} s", file=sys.stderr)
        for what, xs in (("wall", wall), ("cpu", cpu)):
            ratios = sorted(p / c for p, c in xs)
            print(
                f"| design card via `npuzzle.run` / `bench run`, {what}, {pairs} pairs | "
                f"{ratios[0]:.3f} / **{statistics.median(ratios):.3f}** / {ratios[-1]:.3f} "
                f"(min / median / max; medians: Python {statistics.median(p for p, _ in xs):.2f} s, "
                f"bench {statistics.median(c for _, c in xs):.2f} s) |"
            )


if __name__ == "__main__":
    sys.exit(main())
