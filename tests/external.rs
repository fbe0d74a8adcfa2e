//! External solvers run in isolation: the answer forms of the original task's protocol, wrong
//! answers, crashes, limits (timeout with SIGTERM then SIGKILL, CPU, memory), and processes
//! left behind. The "right" solver is `bench solve` itself, which speaks the protocol; the
//! others are one-line shell or Python programs.

use std::path::Path;
use std::time::Duration;

use npuzzle::Outcome;
use npuzzle::board::{Board, Goal};
use npuzzle::external::{self, Exit, ProcessLimits, Solver};

const BENCH: &str = env!("CARGO_BIN_EXE_bench");

fn solver(command: &str) -> Solver {
    format!("t={command}").parse().unwrap()
}

/// 8 6 7 / 2 5 4 / 3 0 1: one of the two hardest 8-puzzles (31 moves, blank-last goal).
fn hard() -> Board {
    Board::new(3, 3, vec![8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap()
}

fn run(command: &str, board: &Board, limits: &ProcessLimits) -> external::Judged {
    external::run_solver(
        &solver(command),
        board,
        Goal::BlankLast,
        limits,
        Path::new(&std::env::temp_dir()),
    )
    .unwrap()
}

fn limits() -> ProcessLimits {
    ProcessLimits {
        // Far above what any solver here needs, so a loaded machine cannot turn an answer
        // into a timeout.
        timeout: Some(Duration::from_secs(300)),
        ..ProcessLimits::default()
    }
}

#[test]
fn bench_solve_in_every_output_form_is_a_right_answer_of_optimal_length() {
    let b = hard();
    for flags in ["", "--short", "--format json"] {
        let o = run(&format!("{BENCH} solve {flags}"), &b, &limits());
        assert_eq!(o.outcome, Outcome::Solved, "{flags}: {o:?}");
        let s = o.solution.as_ref().expect("a solved job has its solution");
        // 31 moves: the 8-puzzle's diameter (Reinefeld 1993), reached by this board.
        assert_eq!(s.moves.len(), 31, "{flags}");
        assert_eq!(s.counters.nodes_generated.is_some(), flags.contains("json"));
        assert_eq!(o.measured.exit, Exit::Code(0));
        assert!(o.measured.peak_memory > 0);
    }
}

#[test]
fn the_board_file_placeholder_works() {
    let o = run(
        &format!("{BENCH} solve --short {{file}} < /dev/null"),
        &hard(),
        &limits(),
    );
    assert_eq!(o.outcome, Outcome::Solved, "{o:?}");
    assert!(o.solution.is_some());
}

#[test]
fn rejections_wrong_answers_and_crashes_are_told_apart() {
    let b = hard();
    // The original task's rejection, as bench solve prints it for an unsolvable board.
    let unsolvable = Board::new(3, 3, vec![1, 2, 3, 4, 5, 6, 8, 7, 0]).unwrap();
    let o = run(&format!("{BENCH} solve"), &unsolvable, &limits());
    assert_eq!(o.outcome, Outcome::Rejected, "{o:?}");
    assert_eq!(
        o.detail.as_deref(),
        Some("Некорректный формат входных данных")
    );
    // A legal move that does not solve it, an illegal move, garbage, silence.
    for (cmd, what) in [
        ("cat > /dev/null; echo L", "not solved"),
        ("cat > /dev/null; echo D", "illegal"),
        ("echo hello world", "unreadable"),
        ("true", "empty"),
    ] {
        let o = run(cmd, &b, &limits());
        assert_eq!(o.outcome, Outcome::WrongAnswer, "{what}: {o:?}");
        assert!(o.detail.is_some() && o.solution.is_none(), "{what}: {o:?}");
    }
    // A crash: exit status, a signal; its stderr is kept.
    let o = run("echo boom >&2; exit 3", &b, &limits());
    assert_eq!(o.outcome, Outcome::Crashed, "{o:?}");
    assert_eq!(o.measured.exit, Exit::Code(3));
    assert_eq!(o.measured.stderr_tail.trim(), "boom");
    let o = run("kill -SEGV $$", &b, &limits());
    assert_eq!(o.outcome, Outcome::Crashed, "{o:?}");
    assert_eq!(o.measured.exit, Exit::Signal(11));
}

#[test]
fn a_timeout_reaches_the_whole_group_even_when_sigterm_is_ignored() {
    let b = hard();
    let lim = ProcessLimits {
        timeout: Some(Duration::from_millis(300)),
        grace: Duration::from_millis(300),
        ..ProcessLimits::default()
    };
    // Bounds far above the limits (a loaded machine), far below the commands' own ends.
    let o = run("sleep 600", &b, &lim);
    assert_eq!(o.outcome, Outcome::Timeout, "{o:?}");
    assert!(
        o.measured.wall < Duration::from_secs(60),
        "{:?}",
        o.measured.wall
    );
    // Ignores SIGTERM: killed after the grace period.
    let o = run("trap '' TERM; while :; do sleep 0.05; done", &b, &lim);
    assert_eq!(o.outcome, Outcome::Timeout, "{o:?}");
    assert_eq!(o.measured.exit, Exit::Signal(9));
    assert!(
        o.measured.wall < Duration::from_secs(60),
        "{:?}",
        o.measured.wall
    );
}

#[test]
fn processes_left_behind_are_killed() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let cmd = format!(
        "cat > /dev/null; sleep 60 & echo $! > {}; echo hello",
        pidfile.display()
    );
    let o = run(&cmd, &hard(), &limits());
    assert_eq!(o.outcome, Outcome::WrongAnswer, "{o:?}");
    assert!(o.measured.leftover_killed);
    let pid = std::fs::read_to_string(&pidfile).unwrap();
    let proc = format!("/proc/{}", pid.trim());
    // The orphan was SIGKILLed; it may stay a zombie for a moment until init reaps it, and on
    // a loaded machine take a while to be scheduled to die: a generous bound, a quick poll.
    let start = std::time::Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        let state = std::fs::read_to_string(format!("{proc}/stat")).unwrap_or_default();
        if state.is_empty() || state.contains(") Z") {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("the background sleep {pid} outlived its solver");
}

#[test]
fn the_cpu_limit_stops_a_busy_loop() {
    // A timeout far above the CPU limit: on a busy machine the loop gets a fraction of a core,
    // and the CPU limit must still be what stops it.
    let lim = ProcessLimits {
        timeout: Some(Duration::from_secs(300)),
        cpu: Some(Duration::from_secs(1)),
        ..ProcessLimits::default()
    };
    let o = run("while :; do :; done", &hard(), &lim);
    assert_eq!(o.outcome, Outcome::CpuLimit, "{o:?}");
    let cpu = o.measured.user + o.measured.system;
    assert!(
        cpu >= Duration::from_millis(500) && cpu < Duration::from_secs(4),
        "{cpu:?}"
    );
}

#[test]
fn a_solver_that_allocates_without_bound_is_stopped_at_the_memory_limit() {
    // With a memory cgroup where one can be made (root, cgroup v1 memory controller), and
    // with the sampling watchdog that is the fallback everywhere else.
    for cgroup in [true, false] {
        let lim = ProcessLimits {
            timeout: Some(Duration::from_secs(300)),
            memory: Some(100 << 20),
            cgroup,
            ..ProcessLimits::default()
        };
        // Touches 10 MB per step; it would reach 4 GB.
        let cmd =
            "python3 -c 'l = []\nfor i in range(400): l.append(bytearray(10**7))\nprint(\"R\")'";
        let o = run(cmd, &hard(), &lim);
        assert_eq!(o.outcome, Outcome::MemoryLimit, "cgroup {cgroup}: {o:?}");
        // The peak is near the limit, not the 4 GB the program asked for. (Without a cgroup
        // the watchdog samples every few milliseconds; on a loaded machine it may run late
        // while the program keeps allocating, hence the wide upper bound.)
        let peak = o.measured.peak_memory;
        assert!(
            (50 << 20..=1 << 30).contains(&peak),
            "cgroup {cgroup}: {peak}"
        );
    }
}

/// The example solver of docs/external-solvers.md, extracted from the page.
fn documented_solver(dir: &Path) -> String {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/external-solvers.md"
    ))
    .unwrap();
    let start = doc
        .find("```python\n")
        .expect("the page has a python block")
        + 10;
    let len = doc[start..].find("```").unwrap();
    let path = dir.join("solver.py");
    std::fs::write(&path, &doc[start..start + len]).unwrap();
    format!("python3 {}", path.display())
}

#[test]
fn the_documented_example_solver_speaks_the_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = documented_solver(dir.path());
    // Boards a few moves from the goal (blank-last) on 3 x 3 and 2 x 3: solutions that replay.
    let walks: [(usize, usize, &str); 3] = [(3, 3, "UULDRDLUR"), (3, 3, "LLUURD"), (2, 3, "ULLDR")];
    for (rows, cols, walk) in walks {
        let mut b = Board::solved(rows, cols, Goal::BlankLast);
        b.apply_all(&npuzzle::board::moves_from_str(walk).unwrap())
            .unwrap();
        let o = run(&cmd, &b, &limits());
        match (o.outcome, &o.solution) {
            (Outcome::Solved, Some(s)) => assert!(s.moves.len() <= walk.len(), "{walk}"),
            _ => panic!("{walk}: {o:?} ({})", o.measured.stderr_tail),
        }
    }
    let unsolvable = Board::new(2, 3, vec![2, 1, 3, 4, 5, 0]).unwrap();
    let o = run(&cmd, &unsolvable, &limits());
    assert_eq!(o.outcome, Outcome::Rejected, "{o:?}");
}
