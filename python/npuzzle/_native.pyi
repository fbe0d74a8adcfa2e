"""Type stubs of the Rust extension behind :mod:`npuzzle` (python/src/lib.rs).

Internal: use the functions of :mod:`npuzzle`, which convert boards and results.
"""

from typing import Callable, Optional, Sequence

VERSION: str
SCHEMA_VERSION: int

class Solved:
    """One solve's answer as the extension returns it."""

    @property
    def json(self) -> str: ...
    @property
    def message(self) -> Optional[str]: ...
    @property
    def notes(self) -> list[str]: ...
    @property
    def tiles(self) -> list[int]: ...

def solve_text(
    text: str,
    algorithm: Optional[str] = None,
    heuristic: Optional[str] = None,
    goal: Optional[str] = None,
    timeout: Optional[str] = None,
    max_nodes: Optional[int] = None,
    max_memory: Optional[str] = None,
) -> Solved: ...
def solve_with_function(
    text: str,
    estimate: Callable[[bytes], int],
    algorithm: str,
    name: str,
    goal: Optional[str] = None,
    timeout: Optional[str] = None,
    max_nodes: Optional[int] = None,
) -> Solved: ...
def generate(
    rows: int,
    cols: int,
    moves: Optional[int],
    count: int,
    seed: int,
    goal: str,
    out: Optional[str] = None,
) -> bytes: ...
def read_instances(path: str, goal: Optional[str] = None) -> tuple[int, int, str, list[str], bytes]: ...
def write_instances(
    path: str, rows: int, cols: int, boards: Sequence[Sequence[int]], goal: str, origin: str
) -> None: ...
def run(
    instances: Sequence[str],
    algorithms: Sequence[str],
    heuristics: Sequence[str],
    out: str,
    goal: Optional[str] = None,
    threads: Optional[int] = None,
    timeout: Optional[str] = None,
    max_nodes: Optional[int] = None,
    max_memory: Optional[str] = None,
    repeat: int = 1,
    warmup: int = 0,
    seed: Optional[int] = None,
    resume: bool = False,
    isolate: bool = False,
    solutions: bool = False,
    progress: Optional[Callable[[int, int], None]] = None,
) -> tuple[int, bool]: ...
def read_rows(path: str) -> tuple[str, list[str]]: ...
def names() -> tuple[list[str], list[str]]: ...
