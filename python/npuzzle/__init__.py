"""npuzzle: the sliding-tile puzzle engine, generator and benchmark harness, from Python.

The same Rust engine as the ``bench`` command line (built from this repository with PyO3):

- :func:`solve` one board (``bench solve --format json``'s fields as attributes),
- :func:`generate` seeded instance sets (the boards of ``bench gen``), :func:`read_instances`,
  :func:`write_instances`,
- :func:`run` the harness (the rows of ``bench run``), :func:`read_results` a results CSV,
- a heuristic written in Python: ``solve(board, heuristic=my_function)``.

Boards are 2-D: nested lists or numpy arrays of any integer dtype, ``0`` the blank. Goals are
``"blank-last"`` (the default: 1, 2, ..., blank) or ``"blank-first"`` (Korf's: blank, 1, 2, ...).
The whole API is in docs/python.md.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence, Union

import numpy as np

from . import _native

__all__ = [
    "SolveResult",
    "solve",
    "generate",
    "read_instances",
    "write_instances",
    "run",
    "read_results",
    "ALGORITHMS",
    "HEURISTICS",
    "SCHEMA_VERSION",
    "__version__",
]

__version__: str = _native.VERSION
#: The results CSV schema version this package writes.
SCHEMA_VERSION: int = _native.SCHEMA_VERSION
#: Algorithm and heuristic names, as ``bench`` accepts them (``wastar:W`` etc. take a
#: parameter; ``pdb[:PARTITION]`` too).
ALGORITHMS, HEURISTICS = (tuple(x) for x in _native.names())

PathLike = Union[str, "os.PathLike[str]"]


def _duration(value: Any) -> Optional[str]:
    """A timeout as ``bench`` spells it: seconds (int/float) or a string like ``"500ms"``."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"timeout must be seconds (int or float) or a string like '500ms', not {value!r}")
    return format(float(value), "f")


def _size(value: Any) -> Optional[str]:
    """A memory limit as ``bench`` spells it: bytes (int) or a string like ``"2GiB"``."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"max_memory must be bytes (int) or a string like '2GiB', not {value!r}")
    return str(int(value))


def _board_text(board: Any) -> str:
    """The board as the JSON matrix ``bench solve`` reads, so that its checks and messages apply."""
    if isinstance(board, np.ndarray):
        if board.dtype.kind not in "iu":
            raise ValueError(f"a board's tiles are integers; this array has dtype {board.dtype}")
        board = board.tolist()
    elif isinstance(board, (list, tuple)):
        board = [list(r) if isinstance(r, (list, tuple, np.ndarray)) else r for r in board]
        board = [r.tolist() if isinstance(r, np.ndarray) else r for r in board]
    else:
        raise TypeError(f"a board is a 2-D list or numpy array, not {type(board).__name__}")
    try:
        return json.dumps(board)
    except TypeError as e:
        raise ValueError(f"a board's tiles are integers: {e}") from None


class SolveResult:
    """One :func:`solve`'s answer.

    Its attributes are the fields of ``bench solve --format json``: ``status`` (``"solved"``,
    ``"timeout"``, ``"node-limit"``, ``"memory-limit"``, ``"depth-limit"``, ``"cancelled"``),
    ``rows``, ``cols``, ``goal``, ``moves`` (U/D/L/R, the blank's direction), ``length``,
    ``blank_positions`` (1-based, start included), ``algorithm``, ``heuristic``, ``optimal``,
    ``nodes_expanded``, ``nodes_generated``, ``peak_stored_nodes``, ``initial_h``,
    ``iterations``, ``lower_bound``, ``peak_heap_bytes``, ``per_iteration``, ``search_ms``,
    ``setup_ms``; ``moves``, ``length`` and ``blank_positions`` are ``None`` when a limit
    stopped the search. Besides: ``solved`` (bool), ``message`` (the limit's message, as
    ``bench solve`` prints it), ``notes`` (e.g. which algorithm answered), ``board`` (the start
    as a numpy array) and :meth:`boards` (every board along the solution).
    """

    __slots__ = ("_fields", "message", "notes", "board")

    def __init__(self, native: Any) -> None:
        fields = json.loads(native.json)
        self._fields = fields
        self.message: Optional[str] = native.message
        self.notes: list = list(native.notes)
        self.board = np.array(native.tiles, dtype=np.int64).reshape(fields["rows"], fields["cols"])

    # Fields `bench solve --format json` leaves out when they do not apply.
    _ABSENT = {"moves": None, "length": None, "blank_positions": None, "per_iteration": ()}

    def __getattr__(self, name: str) -> Any:
        try:
            return self._fields[name]
        except KeyError:
            if name in SolveResult._ABSENT:
                return SolveResult._ABSENT[name]
            raise AttributeError(name) from None

    def __dir__(self) -> list:
        return sorted(set(super().__dir__()) | set(self._fields) | set(SolveResult._ABSENT))

    @property
    def solved(self) -> bool:
        """Whether a solution was found (``status == "solved"``)."""
        return self._fields["status"] == "solved"

    def to_dict(self) -> dict:
        """``bench solve --format json``'s object as a dict (fields that do not apply left out,
        as there)."""
        return dict(self._fields)

    def boards(self) -> np.ndarray:
        """Every board from the start to the goal, shape ``(length + 1, rows, cols)``.

        Computed on demand from the start and the blank's positions.
        """
        if self.blank_positions is None:
            raise ValueError(f"no solution ({self._fields['status']}): no boards to show")
        flat = self.board.reshape(-1).copy()
        out = np.empty((len(self._fields["blank_positions"]), flat.size), dtype=np.int64)
        cells = [p - 1 for p in self._fields["blank_positions"]]
        out[0] = flat
        for i in range(1, len(cells)):
            flat[cells[i - 1]], flat[cells[i]] = flat[cells[i]], 0
            out[i] = flat
        return out.reshape(-1, self._fields["rows"], self._fields["cols"])

    def __repr__(self) -> str:
        f = self._fields
        what = f"length={self.length}" if self.solved else f"status={f['status']!r}"
        return (
            f"SolveResult({what}, algorithm={f['algorithm']!r}, heuristic={f['heuristic']!r}, "
            f"optimal={f['optimal']}, nodes_expanded={f['nodes_expanded']}, "
            f"search_ms={f['search_ms']:.3f})"
        )


def _python_heuristic(fn: Callable[[np.ndarray], int], rows: int, cols: int) -> Callable[[bytes], int]:
    """Wraps ``fn(board) -> int`` for the engine, which passes positions as bytes."""
    shape = (rows, cols)

    def estimate(tiles: bytes) -> int:
        return fn(np.frombuffer(tiles, dtype=np.uint8).reshape(shape).astype(np.int64))

    return estimate


def solve(
    board: Any,
    algorithm: Optional[str] = None,
    heuristic: Union[str, Callable[[np.ndarray], int], None] = None,
    goal: Optional[str] = None,
    timeout: Union[float, str, None] = None,
    max_nodes: Optional[int] = None,
    max_memory: Union[int, str, None] = None,
) -> SolveResult:
    """Solves one board, as ``bench solve --format json`` does.

    Args:
        board: a 2-D list or numpy array of integers, ``0`` the blank.
        algorithm: a name from :data:`ALGORITHMS` (``"idastar"``, ``"astar"``, ``"bfs"``,
            ``"wastar:1.5"``, ``"approx"``, ...). Default: ``bench solve``'s (IDA* up
            to 4 x 4; beyond, IDA* for one second or ``timeout``, then ``approx``).
        heuristic: a name from :data:`HEURISTICS` (default ``"linear-conflict"``), or a Python
            function ``f(board) -> int`` that gets a position as a 2-D int64 numpy array and
            returns a lower bound on its distance to the goal (A*, greedy, weighted A*, IDA*,
            weighted IDA*: the serial algorithms that use a heuristic; boards of at most 256
            cells; ``algorithm`` defaults to
            ``"idastar"``). It is called once per generated node: see docs/python.md for
            its cost.
        goal: ``"blank-last"`` (default) or ``"blank-first"``.
        timeout: seconds, or a string like ``"500ms"``.
        max_nodes: a budget of generated nodes.
        max_memory: bytes, or a string like ``"2GiB"`` (not with a Python heuristic).

    Returns:
        a :class:`SolveResult`; a search stopped by a limit is a result too (``solved`` is
        false, ``status`` and ``message`` say which limit).

    Raises:
        ValueError: the board is not a board, or cannot reach the goal (the message
            ``bench solve`` gives), or an argument is not one ``bench`` accepts.
        KeyboardInterrupt: Ctrl-C while it searched (the search runs with the GIL released
            and stops within about 50 ms; a Python heuristic sees it before its next call).
    """
    text = _board_text(board)
    if callable(heuristic):
        if max_memory is not None:
            raise ValueError("max_memory does not apply to a Python heuristic (its memory is Python's)")
        arr = json.loads(text)
        rows, cols = len(arr), (len(arr[0]) if arr and isinstance(arr[0], list) else 0)
        name = "python:" + getattr(heuristic, "__name__", type(heuristic).__name__)
        native = _native.solve_with_function(
            text,
            _python_heuristic(heuristic, rows, cols),
            algorithm or "idastar",
            name,
            goal,
            _duration(timeout),
            max_nodes,
        )
    else:
        native = _native.solve_text(
            text, algorithm, heuristic, goal, _duration(timeout), max_nodes, _size(max_memory)
        )
    return SolveResult(native)


def _boards_array(raw: bytes, count: int, rows: int, cols: int) -> np.ndarray:
    return np.frombuffer(raw, dtype="<u2").astype(np.int64).reshape(count, rows, cols)


def generate(
    rows: int,
    cols: Optional[int] = None,
    moves: Optional[int] = None,
    count: int = 100,
    seed: Optional[int] = None,
    goal: str = "blank-last",
    out: Optional[PathLike] = None,
) -> np.ndarray:
    """Seeded random solvable boards: the instances of ``bench gen`` with the same arguments.

    ``generate(4, 4, moves=30, count=10, seed=1)`` equals the boards of
    ``bench gen --rows 4 --cols 4 --moves 30 --count 10 --seed 1``.

    Args:
        rows, cols: the board size (``cols`` defaults to ``rows``).
        moves: each board is a random walk of exactly this many blank moves from the goal;
            ``None``: uniformly random solvable boards.
        count: how many.
        seed: the seed (a fresh 32-bit one, printed on stderr, if ``None``).
        goal: ``"blank-last"`` or ``"blank-first"``.
        out: also write the instance file ``bench gen --out`` writes (byte for byte).

    Returns:
        an int64 array of shape ``(count, rows, cols)``.
    """
    cols = rows if cols is None else cols
    if seed is None:
        seed = random.getrandbits(32)
        print(f"npuzzle.generate: seed {seed} (pass seed= for a repeatable set)", file=sys.stderr)
    raw = _native.generate(rows, cols, moves, count, seed, goal, None if out is None else os.fspath(out))
    return _boards_array(raw, count, rows, cols)


def read_instances(path: PathLike, goal: Optional[str] = None) -> np.ndarray:
    """The boards of an instance file (our format, Korf's tsv or JSON matrices), shape
    ``(count, rows, cols)``. The file's goal and ids: :func:`read_instance_file`."""
    return read_instance_file(path, goal)[0]


def read_instance_file(path: PathLike, goal: Optional[str] = None) -> tuple:
    """An instance file as ``(boards, ids, goal)``: the boards as in :func:`read_instances`,
    the instances' ids (strings) and the goal they are to be solved for (the override
    ``goal``, else the file's)."""
    rows, cols, file_goal, ids, raw = _native.read_instances(os.fspath(path), goal)
    return _boards_array(raw, len(ids), rows, cols), list(ids), file_goal


def write_instances(path: PathLike, boards: Any, goal: str = "blank-last") -> Path:
    """Writes boards (an array ``(count, rows, cols)`` or a list of 2-D boards) to an
    instance file in the project's format, ids 1, 2, ...; every board is checked."""
    arr = np.asarray(boards)
    if arr.ndim != 3 or arr.dtype.kind not in "iu":
        raise ValueError(f"boards must be integers of shape (count, rows, cols); got shape {arr.shape}, dtype {arr.dtype}")
    if arr.size and arr.min() < 0:
        raise ValueError("a tile is negative")
    count, rows, cols = arr.shape
    _native.write_instances(os.fspath(path), rows, cols, arr.reshape(count, -1).tolist(), goal, "python")
    return Path(path)


# Column types of the results CSV (pandas), beside the categorical ones.
_CATEGORICAL = ("goal", "algorithm", "heuristic", "status", "measured_by")
_STATUSES = (
    "solved", "timeout", "node-limit", "memory-limit", "depth-limit", "cpu-limit",
    "wrong-answer", "rejected", "crashed", "error",
)
_BOOLEAN = ("optimal", "suboptimal")
_FLOAT = ("wall_ms", "search_ms", "cpu_ms", "user_ms", "sys_ms", "setup_ms")
_STRING = ("run_id", "instance_file", "instance_id", "message", "solution")


def _pandas():
    try:
        import pandas
    except ImportError:
        return None
    return pandas


def _frame(records: list, columns: Sequence[str]):
    """Rows as a typed DataFrame: categorical statuses, nullable integers, floats, booleans."""
    pd = _pandas()
    df = pd.DataFrame.from_records(records, columns=list(columns))
    for c in columns:
        if c in _CATEGORICAL:
            cats = _STATUSES if c == "status" else None
            df[c] = pd.Categorical(df[c], categories=cats) if cats else df[c].astype("category")
        elif c in _BOOLEAN:
            df[c] = df[c].astype("boolean")
        elif c in _FLOAT:
            df[c] = df[c].astype("float64")
        elif c in _STRING:
            df[c] = df[c].astype("object")
        else:
            df[c] = df[c].astype("Int64")
    return df


def read_results(path: PathLike, as_frame: Optional[bool] = None):
    """A results CSV (``bench run``'s, any schema version) as typed rows.

    Returns a pandas DataFrame when pandas is installed (``status``, ``algorithm``,
    ``heuristic``, ``goal`` categorical; counts as nullable ``Int64``; times as float64;
    ``optimal``/``suboptimal`` as nullable boolean), else a list of dicts with the CSV's
    columns (``None`` for an empty cell). ``as_frame=False`` forces the list.
    """
    text, columns = _native.read_rows(os.fspath(path))
    records = json.loads(text)
    if as_frame is None:
        as_frame = _pandas() is not None
    if not as_frame:
        return records
    if _pandas() is None:
        raise ImportError("read_results(as_frame=True) needs pandas")
    return _frame(records, columns)


class _Progress:
    """``npuzzle.run: done/total jobs (percent), seconds`` on a stream, redrawn in place with a
    carriage return when it changes: a terminal and a notebook's output cell both show one
    line that counts up."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.last = None
        self.start = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        if (done, total) != self.last:
            self.last = (done, total)
            share = f" ({100 * done // total}%)" if total else ""
            spent = time.monotonic() - self.start
            self.stream.write(f"\rnpuzzle.run: {done}/{total} jobs{share}, {spent:.0f} s")
            self.stream.flush()

    def close(self) -> None:
        if self.last is not None:
            self.stream.write("\n")
            self.stream.flush()


def _names(x: Union[str, Iterable[str]]) -> list:
    return [x] if isinstance(x, str) else list(x)


def run(
    instances: Any,
    algorithms: Union[str, Iterable[str]] = ("idastar",),
    heuristics: Union[str, Iterable[str]] = ("manhattan",),
    threads: Optional[int] = None,
    timeout: Union[float, str, None] = None,
    repeat: int = 1,
    out: Optional[PathLike] = None,
    goal: Optional[str] = None,
    max_nodes: Optional[int] = None,
    max_memory: Union[int, str, None] = None,
    warmup: int = 0,
    seed: Optional[int] = None,
    resume: bool = False,
    solutions: bool = False,
    progress: Union[bool, Callable[[int, int], Any]] = True,
    as_frame: Optional[bool] = None,
):
    """Runs the benchmark harness, as ``bench run`` does: every instance x algorithm x
    heuristic (blind algorithms once), ``repeat`` times, on ``threads`` worker threads, with
    the same limits and statistics (jobs run in-process: ``bench run --isolate``
    runs each as a child process of the ``bench`` binary).

    Args:
        instances: an instance-file path (or a list of paths), or boards: what
            :func:`generate` returns, or a list of 2-D boards (written to an instance file
            beside ``out``, or to a temporary one).
        algorithms, heuristics: names, as ``bench run --algo`` / ``--heuristic`` take them.
        threads: worker threads (default: all cores).
        timeout, max_nodes, max_memory: per-job limits (``max_memory`` default: ``bench
            run``'s share of the machine's memory).
        repeat, warmup, seed: as ``bench run --repeat/--warmup/--seed``.
        out: the results CSV to write (its ``.meta.json`` sidecar beside it); ``None``: a
            temporary file, removed after reading.
        resume: continue the run in ``out`` (``bench run --resume``).
        solutions: fill the ``solution`` column.
        progress: ``True``: show ``done/total jobs`` on stderr while it runs, redrawn in place
            (a terminal or a notebook); ``False``: nothing; a function ``f(done, total)``:
            called instead (every 50 ms while it runs, e.g. to drive a progress bar).

    Returns:
        the rows (a DataFrame, see :func:`read_results`; a list of dicts without pandas or
        with ``as_frame=False``). The GIL is released while the jobs run; Ctrl-C stops the
        run, keeps the finished rows (returned, and in ``out``) and warns; the DataFrame's
        ``attrs["interrupted"]`` says so.
    """
    with tempfile.TemporaryDirectory(prefix="npuzzle-run-") as tmp:
        paths = _instance_paths(instances, out, tmp, goal)
        csv = Path(out) if out is not None else Path(tmp) / "run.csv"
        if callable(progress):
            reporter = progress
        else:
            reporter = _Progress(sys.stderr) if progress else None
        try:
            status, interrupted = _native.run(
                paths,
                _names(algorithms),
                _names(heuristics),
                os.fspath(csv),
                goal,
                threads,
                _duration(timeout),
                max_nodes,
                _size(max_memory),
                repeat,
                warmup,
                seed,
                resume,
                False,
                solutions,
                reporter,
            )
        finally:
            if isinstance(reporter, _Progress):
                reporter.close()
        rows = read_results(csv, as_frame=as_frame)
    if interrupted:
        warnings.warn(
            f"npuzzle.run interrupted: {len(rows)} finished row(s) kept"
            + (f" in {csv}; finish with resume=True" if out is not None else ""),
            RuntimeWarning,
            stacklevel=2,
        )
    if hasattr(rows, "attrs"):
        rows.attrs["interrupted"] = interrupted
    return rows


def _instance_paths(instances: Any, out: Optional[PathLike], tmp: str, goal: Optional[str]) -> list:
    """Instance files for :func:`run`: the paths given, or the boards written to a file."""
    if isinstance(instances, (str, os.PathLike)):
        return [os.fspath(instances)]
    if isinstance(instances, (list, tuple)) and instances and all(
        isinstance(p, (str, os.PathLike)) for p in instances
    ):
        return [os.fspath(p) for p in instances]
    arr = np.asarray(instances)
    if arr.ndim == 2:
        arr = arr[np.newaxis]
    if out is not None:
        o = Path(out)
        path = o.with_name(o.stem + ".instances.txt")
    else:
        path = Path(tmp) / "instances.txt"
    write_instances(path, arr, goal or "blank-last")
    return [os.fspath(path)]
