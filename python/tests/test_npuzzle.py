"""The Python package checked against the command line (`bench`), and against independent
oracles: a replay of every solution in plain Python, Manhattan distance written here."""

import csv
import json
import os
import re
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import npuzzle
from conftest import REPO, bench_solve_json, parse_instance_file, run_bench

# The hardest 8-puzzle position (31 moves, a published fact) and Korf's instance 1 (57 moves,
# blank-first), for searches that must not finish.
HARDEST_8 = [[8, 6, 7], [2, 5, 4], [3, 0, 1]]
KORF_1 = [[14, 13, 15, 7], [11, 12, 9, 5], [6, 0, 2, 1], [4, 8, 10, 3]]
TIMINGS = {"search_ms", "setup_ms", "peak_heap_bytes"}


def goal_board(rows, cols, goal="blank-last"):
    n = rows * cols
    tiles = list(range(1, n)) + [0] if goal == "blank-last" else list(range(n))
    return np.array(tiles).reshape(rows, cols)


def replay_ok(result, goal="blank-last"):
    """Checks in plain numpy that each board is the previous one with the blank moved to a
    neighbour, and the last is the goal."""
    boards = result.boards()
    assert len(boards) == result.length + 1
    assert (boards[0] == result.board).all()
    for a, b in zip(boards, boards[1:]):
        diff = np.argwhere(a != b)
        assert len(diff) == 2, diff
        (r1, c1), (r2, c2) = diff
        assert abs(r1 - r2) + abs(c1 - c2) == 1
        assert sorted([a[r1, c1], a[r2, c2]])[0] == 0
    assert (boards[-1] == goal_board(result.rows, result.cols, goal)).all()


# ---------------------------------------------------------------- generate


@pytest.mark.parametrize(
    "rows,cols,moves,goal",
    [(3, 3, None, "blank-last"), (4, 4, 30, "blank-first"), (2, 5, None, "blank-first"), (5, 5, 60, "blank-last")],
)
def test_generate_gives_the_instances_of_bench_gen(bench, tmp_path, rows, cols, moves, goal):
    theirs = tmp_path / "bench.txt"
    args = ["gen", "--rows", rows, "--cols", cols, "--count", 25, "--seed", 1234, "--goal", goal, "--out", theirs, "--quiet"]
    if moves is not None:
        args += ["--moves", moves]
    run_bench(bench, *args)
    ours = tmp_path / "py.txt"
    boards = npuzzle.generate(rows, cols, moves=moves, count=25, seed=1234, goal=goal, out=ours)
    assert boards.shape == (25, rows, cols)
    assert boards.tolist() == parse_instance_file(theirs)
    assert ours.read_bytes() == theirs.read_bytes()
    # and read back through the package
    again, ids, file_goal = npuzzle.read_instance_file(theirs)
    assert (again == boards).all() and ids == [str(i) for i in range(1, 26)] and file_goal == goal


def test_generate_refuses_what_bench_gen_refuses():
    with pytest.raises(ValueError, match="count must be at least 1"):
        npuzzle.generate(3, 3, count=0, seed=1)
    with pytest.raises(ValueError, match="cannot generate 1 x 3"):
        npuzzle.generate(1, 3, count=2, seed=1)
    with pytest.raises(ValueError, match="goal"):
        npuzzle.generate(3, 3, count=2, seed=1, goal="middle")


def test_write_instances_round_trips_and_checks_boards(tmp_path):
    boards = npuzzle.generate(3, 4, count=7, seed=9)
    path = npuzzle.write_instances(tmp_path / "b.txt", boards.astype(np.int16), goal="blank-last")
    assert (npuzzle.read_instances(path) == boards).all()
    bad = boards.copy()
    bad[3, 0, 0] = bad[3, 0, 1]
    with pytest.raises(ValueError, match="board 4: .* appears twice"):
        npuzzle.write_instances(tmp_path / "c.txt", bad)


# ---------------------------------------------------------------- solve


def boards_to_solve(bench, tmp_path):
    path = tmp_path / "s.txt"
    run_bench(bench, "gen", "--rows", 3, "--cols", 3, "--count", 4, "--seed", 77, "--out", path, "--quiet")
    out = parse_instance_file(path)
    run_bench(bench, "gen", "--rows", 4, "--cols", 4, "--moves", 40, "--count", 2, "--seed", 5, "--out", path, "--quiet")
    return out + parse_instance_file(path) + [HARDEST_8, goal_board(4, 4).tolist()]


@pytest.mark.parametrize(
    "algorithm,heuristic",
    [(None, None), ("idastar", "manhattan"), ("astar", "linear-conflict"), ("bfs", None), ("wastar:1.5", "manhattan"), ("idastar", "walking-distance")],
)
def test_solve_gives_the_fields_of_bench_solve_json(bench, tmp_path, algorithm, heuristic):
    args = (["--algo", algorithm] if algorithm else []) + (["--heuristic", heuristic] if heuristic else [])
    for board in boards_to_solve(bench, tmp_path):
        if algorithm == "bfs" and len(board) == 4:
            continue
        status, theirs, _ = bench_solve_json(bench, board, *args)
        assert status == 0
        for form in (board, np.array(board, dtype=np.uint8), np.array(board, dtype=np.int32), tuple(map(tuple, board))):
            ours = npuzzle.solve(form, algorithm=algorithm, heuristic=heuristic)
            mine = ours.to_dict()
            assert {k: v for k, v in mine.items() if k not in TIMINGS} == {
                k: v for k, v in theirs.items() if k not in TIMINGS
            }
            assert ours.solved and ours.message is None
            for key, value in theirs.items():
                assert getattr(ours, key) == value or key in TIMINGS
        replay_ok(ours)


def test_solve_blank_first_and_goal_override(bench):
    board = npuzzle.generate(4, 4, moves=30, count=1, seed=3, goal="blank-first")[0]
    status, theirs, _ = bench_solve_json(bench, board.tolist(), "--goal", "blank-first")
    ours = npuzzle.solve(board, goal="blank-first")
    assert status == 0 and ours.length == theirs["length"] and ours.goal == "blank-first"
    replay_ok(ours, "blank-first")


@pytest.mark.parametrize(
    "board",
    [
        [[1, 2], [3, 3]],
        [[1, 2, 3], [4, 5, 6], [8, 7, 0]],
        [[1, 2], [3]],
        [[1, -2], [3, 0]],
        [[1, 2, 3, 4]],
        [],
        [[1, 2], [3, 7]],
    ],
)
def test_a_bad_board_raises_the_message_of_bench_solve(bench, board):
    status, theirs, _ = bench_solve_json(bench, board)
    assert status == 1
    with pytest.raises(ValueError) as e:
        npuzzle.solve(board)
    assert str(e.value) == theirs["detail"]


def test_bad_arguments_raise_value_error():
    with pytest.raises(ValueError, match="unknown heuristic"):
        npuzzle.solve(HARDEST_8, heuristic="euclid")
    with pytest.raises(ValueError):
        npuzzle.solve(HARDEST_8, algorithm="dfs")
    with pytest.raises(ValueError, match="timeout"):
        npuzzle.solve(HARDEST_8, timeout="soon")
    with pytest.raises(ValueError):
        npuzzle.solve(np.array(HARDEST_8, dtype=float))
    with pytest.raises(TypeError):
        npuzzle.solve("1 2 3")


def strip_time(message):
    return re.sub(r"after [0-9.]+ s", "after T s", message)


def test_a_limit_is_a_result_with_the_message_of_bench_solve(bench):
    status, theirs, stderr = bench_solve_json(bench, HARDEST_8, "--max-nodes", "100")
    assert status == 3
    ours = npuzzle.solve(HARDEST_8, max_nodes=100)
    assert not ours.solved and ours.status == "node-limit"
    assert ours.length is None and ours.moves is None
    assert {k: v for k, v in ours.to_dict().items() if k not in TIMINGS} == {
        k: v for k, v in theirs.items() if k not in TIMINGS
    }
    assert strip_time(ours.message) in strip_time(stderr)
    # A budget beyond the nodes a search first gets on the calling thread (16,384): the rest
    # runs on the worker thread, with the caller's limit and message.
    status, theirs, stderr = bench_solve_json(bench, HARDEST_8, "--algo", "bfs", "--max-nodes", "50000")
    ours = npuzzle.solve(HARDEST_8, algorithm="bfs", max_nodes=50000)
    assert status == 3 and ours.status == "node-limit" and ours.nodes_generated >= 50000
    assert {k: v for k, v in ours.to_dict().items() if k not in TIMINGS} == {
        k: v for k, v in theirs.items() if k not in TIMINGS
    }
    assert strip_time(ours.message) in strip_time(stderr)
    with pytest.raises(ValueError, match="no solution"):
        ours.boards()
    # A timeout on a search that cannot finish in it (Korf's instance 1, blind IDA*).
    late = npuzzle.solve(KORF_1, goal="blank-first", algorithm="idastar", heuristic="none", timeout=0.05)
    assert late.status == "timeout" and "--timeout 0.05 s" in late.message
    mem = npuzzle.solve(KORF_1, goal="blank-first", algorithm="astar", heuristic="misplaced", max_memory="1MiB")
    assert mem.status == "memory-limit"


# ---------------------------------------------------------------- Python heuristics


def manhattan_blank_last(board):
    """Manhattan distance to the blank-last goal, written independently of the library."""
    rows, cols = board.shape
    total = 0
    for r in range(rows):
        for c in range(cols):
            t = int(board[r, c])
            if t:
                total += abs(r - (t - 1) // cols) + abs(c - (t - 1) % cols)
    return total


@pytest.mark.parametrize("algorithm", ["astar", "idastar", "wida:2", "greedy"])
def test_a_python_manhattan_counts_the_nodes_of_the_builtin_one(bench, tmp_path, algorithm):
    for board in boards_to_solve(bench, tmp_path)[:5]:
        ours = npuzzle.solve(board, algorithm=algorithm, heuristic=manhattan_blank_last)
        builtin = npuzzle.solve(board, algorithm=algorithm, heuristic="manhattan")
        assert ours.heuristic == "python:manhattan_blank_last"
        for key in ("length", "moves", "nodes_expanded", "nodes_generated", "initial_h", "iterations", "optimal"):
            assert getattr(ours, key) == getattr(builtin, key), key
        replay_ok(ours)


def test_a_python_heuristic_takes_boards_past_64_cells(bench, tmp_path):
    path = tmp_path / "big.txt"
    run_bench(bench, "gen", "--rows", 9, "--cols", 9, "--moves", 30, "--count", 2, "--seed", 3, "--out", path, "--quiet")
    for board in parse_instance_file(path):
        ours = npuzzle.solve(board, algorithm="astar", heuristic=manhattan_blank_last)
        builtin = npuzzle.solve(board, algorithm="astar", heuristic="manhattan")
        for key in ("length", "moves", "nodes_expanded", "nodes_generated", "initial_h"):
            assert getattr(ours, key) == getattr(builtin, key), key
        replay_ok(ours)
    with pytest.raises(ValueError, match="at most 256 cells"):
        npuzzle.solve(goal_board(17, 16).tolist(), heuristic=manhattan_blank_last)


def test_python_heuristic_errors_and_limits():
    def broken(board):
        raise ZeroDivisionError("oops")

    with pytest.raises(ZeroDivisionError, match="oops"):
        npuzzle.solve(HARDEST_8, heuristic=broken)
    with pytest.raises(OverflowError):
        npuzzle.solve(HARDEST_8, heuristic=lambda b: -1)
    with pytest.raises(ValueError, match="does not take a heuristic given as a function"):
        npuzzle.solve(HARDEST_8, algorithm="bfs", heuristic=manhattan_blank_last)
    with pytest.raises(ValueError, match="runs on several threads"):
        npuzzle.solve(HARDEST_8, algorithm="idastar-par", heuristic=manhattan_blank_last)
    limited = npuzzle.solve(HARDEST_8, heuristic=lambda b: 0, max_nodes=500)
    assert limited.status == "node-limit" and "--max-nodes 500" in limited.message


# ---------------------------------------------------------------- run and read_results

VOLATILE = {"run_id", "wall_ms", "search_ms", "cpu_ms", "setup_ms", "user_ms", "sys_ms", "peak_heap_bytes"}


def csv_rows(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    key = lambda r: (r["instance_id"], r["algorithm"], r["heuristic"], r["repetition"])
    return sorted(({k: v for k, v in r.items() if k not in VOLATILE} for r in rows), key=key)


def test_run_gives_the_rows_of_bench_run(bench, tmp_path):
    inst = tmp_path / "i.txt"
    run_bench(bench, "gen", "--rows", 3, "--cols", 3, "--count", 6, "--seed", 21, "--out", inst, "--quiet")
    theirs = tmp_path / "bench.csv"
    common = ["--algos", "idastar,astar,bfs,greedy", "--heuristics", "manhattan,misplaced", "--repeat", 2, "--seed", 4, "--threads", 2, "--max-nodes", 20000]
    run_bench(bench, "run", "--instances", inst, *common, "--out", theirs, "--quiet")
    ours = tmp_path / "py.csv"
    df = npuzzle.run(inst, algorithms=["idastar", "astar", "bfs", "greedy"], heuristics="manhattan,misplaced".split(","),
                     repeat=2, seed=4, threads=2, max_nodes=20000, out=ours, progress=False)
    assert csv_rows(ours) == csv_rows(theirs)
    assert len(df) == 6 * (3 * 2 + 1) * 2
    assert Path(str(ours) + ".meta.json").is_file()
    assert df.attrs["interrupted"] is False
    # The DataFrame is the file's rows.
    assert sorted(df["nodes_generated"].dropna().astype(int).tolist()) == sorted(
        int(r["nodes_generated"]) for r in csv_rows(ours) if r["nodes_generated"]
    )


def test_run_records_its_call_not_the_interpreters_argv(tmp_path):
    inst = npuzzle.write_instances(tmp_path / "i.txt", npuzzle.generate(3, 3, moves=10, count=2, seed=3))
    out = tmp_path / "r.csv"
    npuzzle.run(inst, algorithms=["idastar", "astar"], heuristics=["manhattan"], threads=1, repeat=2,
                out=out, progress=False)
    meta = json.loads(Path(str(out) + ".meta.json").read_text())
    expected = ["npuzzle.run", f"instances={inst}", "algorithms=idastar,astar", "heuristics=manhattan",
                f"out={out}", "threads=1", "repeat=2"]
    assert meta["command_line"] == expected
    assert meta["sessions"][0]["command_line"] == expected


def test_run_takes_boards_and_returns_typed_rows(tmp_path):
    boards = npuzzle.generate(3, 3, moves=20, count=5, seed=8)
    df = npuzzle.run(boards, algorithms=["astar"], heuristics=["linear-conflict"], threads=1, progress=False)
    assert isinstance(df, pd.DataFrame) and len(df) == 5
    assert (df["status"] == "solved").all()
    # each length is what solve finds for the same board
    for _, row in df.iterrows():
        board = boards[int(row["instance_id"]) - 1]
        assert row["moves"] == npuzzle.solve(board, algorithm="astar", heuristic="linear-conflict").length
    records = npuzzle.run([b.tolist() for b in boards], algorithms="idastar", heuristics="manhattan",
                          timeout=10, progress=False, as_frame=False)
    assert isinstance(records, list) and len(records) == 5
    r = records[0]
    assert list(r)[:3] == ["run_id", "instance_file", "instance_id"]
    assert isinstance(r["moves"], int) and isinstance(r["wall_ms"], float) and r["optimal"] is True
    assert r["message"] is None and r["status"] == "solved"


def test_read_results_types(bench, tmp_path):
    inst = tmp_path / "i.txt"
    run_bench(bench, "gen", "--rows", 3, "--cols", 3, "--count", 3, "--seed", 2, "--out", inst, "--quiet")
    out = tmp_path / "r.csv"
    run_bench(bench, "run", "--instances", inst, "--algos", "idastar,bfs", "--heuristics", "manhattan", "--max-nodes", 50, "--out", out, "--quiet")
    df = npuzzle.read_results(out)
    header = out.read_text().splitlines()[0].split(",")
    assert list(df.columns) == header
    assert isinstance(df["status"].dtype, pd.CategoricalDtype)
    assert "node-limit" in set(df["status"]) and "solved" in df["status"].cat.categories
    assert df["nodes_generated"].dtype == "Int64" and df["moves"].dtype == "Int64"
    assert df["wall_ms"].dtype == "float64" and df["optimal"].dtype == "boolean"
    assert df["moves"].isna().any()  # limited rows have no length
    records = npuzzle.read_results(out, as_frame=False)
    assert len(records) == len(df) and list(records[0]) == header
    with pytest.raises(ValueError, match="nope.csv"):
        npuzzle.read_results(tmp_path / "nope.csv")


def test_run_errors_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match="missing.txt"):
        npuzzle.run(tmp_path / "missing.txt", progress=False)
    with pytest.raises(ValueError, match="unknown heuristic"):
        npuzzle.run(npuzzle.generate(3, 3, count=2, seed=1), heuristics="euclid", progress=False)


# ---------------------------------------------------------------- Ctrl-C
#
# Each test runs the call in a child Python, waits until the child says the call is under way
# (a line on its stdout), sends it SIGINT and waits (at most BOUND seconds) for the documented
# outcome. The searches cannot finish for hours, so only the interrupt can end them, and the
# child says where the KeyboardInterrupt came from: no verdict depends on when the signal lands.

BOUND = 60

# The child's first lines: Python's own SIGINT handler (a shell's background job inherits
# SIGINT ignored, and Python then installs none).
CHILD_PRELUDE = """
import json, signal, sys, traceback, warnings
signal.signal(signal.SIGINT, signal.default_int_handler)
import npuzzle
KORF_1 = [[14, 13, 15, 7], [11, 12, 9, 5], [6, 0, 2, 1], [4, 8, 10, 3]]
def say(*words):
    print(*words, flush=True)
"""


class Child:
    """A child Python running `script` (after CHILD_PRELUDE), its stdout read line by line."""

    def __init__(self, script, *args):
        self.proc = subprocess.Popen(
            [sys.executable, "-c", CHILD_PRELUDE + script, *map(str, args)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def next_line(self):
        try:
            line = self.lines.get(timeout=BOUND)
        except queue.Empty:
            self.proc.kill()
            raise AssertionError(f"the child said nothing for {BOUND} s") from None
        assert line is not None, f"the child ended ({self.proc.wait()}): {self.proc.stderr.read()}"
        return line

    def wait_for(self, prefix):
        while True:
            line = self.next_line()
            if line.startswith(prefix):
                return line

    def interrupt(self):
        self.proc.send_signal(signal.SIGINT)
        return time.monotonic()

    def finish(self):
        try:
            status = self.proc.wait(timeout=BOUND)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError(f"the child still ran {BOUND} s after the interrupt") from None
        assert status == 0, self.proc.stderr.read()


# Blind IDA* on Korf's instance 1 (57 moves) runs for days: only the interrupt ends it. A
# profile hook says "entered" when the wrapper calls into the extension; a KeyboardInterrupt
# raised in the hook itself (the signal came between the hook's print and the call) is
# "early", and the parent tries again.
CHILD_SOLVE = """
def hook(frame, event, arg):
    if event == "c_call" and getattr(arg, "__name__", "") == "solve_text":
        say("entered")
while True:
    sys.setprofile(hook)
    try:
        r = npuzzle.solve(KORF_1, goal="blank-first", algorithm=sys.argv[1], heuristic="none")
        sys.setprofile(None)
        say("returned", r.status)
        break
    except KeyboardInterrupt as e:
        sys.setprofile(None)
        early = traceback.extract_tb(e.__traceback__)[-1].name == "hook"
        say("early" if early else "interrupted")
        if not early:
            break
"""


@pytest.mark.parametrize("algorithm", ["idastar", "idastar-par"])
def test_ctrl_c_stops_a_builtin_search_and_raises_keyboard_interrupt(algorithm):
    child = Child(CHILD_SOLVE, algorithm)
    for _ in range(5):
        assert child.next_line() == "entered"
        time.sleep(0.2)  # under way on the worker thread (not needed for the verdict)
        sent = child.interrupt()
        line = child.next_line()
        if line != "early":
            break
    assert line == "interrupted"
    assert time.monotonic() - sent < BOUND
    child.finish()


# A Python heuristic says "entered" on its first call: the search is under way.
CHILD_PY_HEURISTIC = """
entered = []
def zero(board):
    if not entered:
        entered.append(1)
        say("entered")
    return 0
try:
    r = npuzzle.solve(KORF_1, goal="blank-first", algorithm="idastar", heuristic=zero)
    say("returned", r.status)
except KeyboardInterrupt:
    say("interrupted")
"""


def test_ctrl_c_stops_a_python_heuristic_search():
    child = Child(CHILD_PY_HEURISTIC)
    assert child.next_line() == "entered"
    sent = child.interrupt()
    assert child.next_line() == "interrupted"
    assert time.monotonic() - sent < BOUND
    child.finish()


# Three quick boards and one that blind IDA* cannot solve for hours, on two threads; the
# progress callable says how many jobs are done; the parent interrupts once three are.
CHILD_RUN = """
quick, endless, out = sys.argv[1:4]
shown = []
def progress(done, total):
    if shown != [done, total]:
        shown[:] = [done, total]
        say("progress", done, total)
before = signal.getsignal(signal.SIGINT)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    df = npuzzle.run([quick, endless], algorithms="idastar", heuristics="none", threads=2, out=out,
                     seed=1, progress=progress)
say(json.dumps({
    "interrupted": df.attrs["interrupted"],
    "rows": len(df),
    "files": sorted(set(df["instance_file"])),
    "warnings": [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)],
    "handler_kept": signal.getsignal(signal.SIGINT) is before,
}))
"""


def test_ctrl_c_stops_run_and_keeps_the_finished_rows(tmp_path):
    quick = npuzzle.write_instances(tmp_path / "quick.txt", npuzzle.generate(3, 3, moves=10, count=3, seed=1))
    endless = npuzzle.write_instances(tmp_path / "endless.txt", npuzzle.generate(4, 4, moves=200, count=1, seed=1))
    out = tmp_path / "run.csv"
    child = Child(CHILD_RUN, quick, endless, out)
    child.wait_for("progress 3 4")
    sent = child.interrupt()
    report = json.loads(child.wait_for("{"))
    assert time.monotonic() - sent < BOUND
    child.finish()
    assert report["interrupted"] is True and report["handler_kept"] is True
    assert report["rows"] == 3 and report["files"] == [str(quick)]
    assert len(report["warnings"]) == 1 and "3 finished row(s) kept" in report["warnings"][0]
    assert len(npuzzle.read_results(out)) == 3
    meta = json.loads(Path(str(out) + ".meta.json").read_text())
    assert meta["sessions"][-1]["status"] == "interrupted"


# A child made by fork (multiprocessing's default on Linux) after the parent has solved: it has
# none of the parent's search threads and must make its own.
CHILD_FORK = """
import os, time
board = [[1, 2, 3], [4, 5, 6], [0, 7, 8]]
assert npuzzle.solve(board).length == 2
pid = os.fork()
if pid == 0:
    os._exit(0 if npuzzle.solve(board).length == 2 else 3)
for _ in range(600):
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        say("child exit", os.waitstatus_to_exitcode(status))
        break
    time.sleep(0.1)
else:
    os.kill(pid, signal.SIGKILL)
    say("child hung")
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_solve_in_a_forked_child():
    child = Child(CHILD_FORK)
    assert child.next_line() == "child exit 0"
    child.finish()
