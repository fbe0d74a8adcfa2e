"""Shared fixtures: the `bench` binary the package is checked against (scripts/test-python.sh
sets NPUZZLE_BENCH), and helpers that run it."""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def bench() -> Path:
    """The `bench` binary: $NPUZZLE_BENCH, else the repository's test-opt or release build."""
    env = os.environ.get("NPUZZLE_BENCH")
    candidates = [Path(env)] if env else [REPO / "target/test-opt/bench", REPO / "target/release/bench"]
    for c in candidates:
        if c.is_file():
            return c
    raise RuntimeError(
        f"no bench binary among {candidates}: build it (cargo build --profile test-opt) or set NPUZZLE_BENCH"
    )


def run_bench(bench: Path, *args, stdin: str = None, check: bool = True) -> subprocess.CompletedProcess:
    """Runs `bench ARGS`, text in and out."""
    p = subprocess.run([str(bench), *map(str, args)], input=stdin, capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"bench {' '.join(map(str, args))} exited {p.returncode}: {p.stderr}")
    return p


def bench_solve_json(bench: Path, board, *args) -> tuple:
    """`bench solve --format json` on a board given as a JSON matrix: (exit status, object, stderr)."""
    p = run_bench(bench, "solve", "--format", "json", *args, stdin=json.dumps(board), check=False)
    obj = json.loads(p.stdout) if p.stdout.strip() else None
    return p.returncode, obj, p.stderr


def parse_instance_file(path: Path) -> list:
    """The boards of a file in the project's format, read independently of the package: the
    `# rows:`/`# cols:` header lines and the last (`tiles`) column of each table line."""
    rows = cols = None
    boards = []
    header_seen = False
    for line in Path(path).read_text().splitlines():
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            if key.strip() == "rows":
                rows = int(value)
            elif key.strip() == "cols":
                cols = int(value)
            continue
        if not header_seen:
            header_seen = True  # the column header: id ... tiles
            continue
        tiles = [int(t) for t in line.split("\t")[-1].split()]
        boards.append([tiles[r * cols:(r + 1) * cols] for r in range(rows)])
    return boards
