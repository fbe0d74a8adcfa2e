//! `bench split`: one IDA* search in pieces, against the single-process search and Korf's
//! published counts. For every bound all pieces finished, the combined counts must equal the
//! single-process IDA* iteration node for node; the single-process counts themselves are tied
//! to Korf's published totals (`data/korf100.tsv`), the independent source. Pieces
//! run concurrently (threads in the library tests, processes in the command-line test) and
//! talk only through their files; no verdict depends on which finishes first: the stop rule
//! changes how much work a piece wastes, never a count of a finished bound or the answer.

use std::path::Path;
use std::process::Command;

use crate::common;

use common::read_tsv;
use npuzzle::heuristic::pdb;
use npuzzle::search::IterationCount;
use npuzzle::split::combine::{Combined, combine, write_combined};
use npuzzle::split::piece::{PieceState, run_piece};
use npuzzle::split::plan::{PlanRequest, make_plan};
use npuzzle::{Algorithm, Board, Goal, HeuristicKind, Limits, Outcome, SolveReport, solve};

const BENCH: &str = env!("CARGO_BIN_EXE_bench");

struct Korf {
    id: u32,
    optimal: usize,
    generated: u64,
    board: Board,
}

/// Single-process IDA* + Manhattan on a blank-first board: the reference every split is
/// compared with (its counts are Korf's published ones on his instances).
fn single_idastar_manhattan(board: &Board) -> SolveReport {
    solve(
        board,
        Goal::BlankFirst,
        Algorithm::Idastar,
        &HeuristicKind::Manhattan,
        &Limits::default(),
    )
    .unwrap()
}

/// Korf's instance 4, the one the command-line tests split.
fn korf4_board() -> Board {
    Board::new(
        4,
        4,
        vec![0, 1, 9, 7, 11, 13, 5, 3, 14, 12, 4, 2, 8, 6, 10, 15],
    )
    .unwrap()
}

/// The lines of a split directory's `iterations.csv`, header first.
fn iteration_lines(out: &Path) -> Vec<String> {
    std::fs::read_to_string(out.join("iterations.csv"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn korf(max_generated: u64) -> Vec<Korf> {
    read_tsv("korf100.tsv")
        .into_iter()
        .map(|r| Korf {
            id: r[0].parse().unwrap(),
            optimal: r[1].parse().unwrap(),
            generated: r[2].parse().unwrap(),
            board: Board::new(4, 4, r[4].split(' ').map(|t| t.parse().unwrap()).collect()).unwrap(),
        })
        .filter(|k| k.generated <= max_generated)
        .collect()
}

fn request(
    board: &Board,
    goal: Goal,
    algorithm: Algorithm,
    h: HeuristicKind,
    pieces: u32,
) -> PlanRequest {
    PlanRequest {
        instance_file: "test".into(),
        instance_id: "1".into(),
        scramble_moves: None,
        board: board.clone(),
        goal,
        algorithm,
        heuristic: h,
        pieces,
        frontier: 500,
        probe_nodes: 100_000,
        any_optimal: false,
        queue: false,
    }
}

/// Plans in `dir`, runs every piece on a thread of its own at once, combines.
fn split_run(dir: &Path, req: &PlanRequest) -> Combined {
    let plan = make_plan(req).unwrap();
    plan.write(dir).unwrap();
    std::thread::scope(|s| {
        for k in 1..=plan.pieces {
            let plan = &plan;
            s.spawn(move || run_piece(plan, dir, k, &Limits::default()).unwrap());
        }
    });
    let c = combine(dir).unwrap();
    write_combined(dir, &c).unwrap();
    c
}

/// The split's bounds against the single-process IDA*'s: every bound all pieces finished
/// equal node for node, the last one (the solution's) marked unfinished.
fn assert_accounting(c: &Combined, single: &[IterationCount], what: &str) {
    assert_eq!(c.iterations.len(), single.len(), "{what}: iterations");
    let (last, before) = c.iterations.split_last().unwrap();
    for (s, i) in single.iter().zip(before) {
        assert!(i.complete(), "{what}: bound {} unfinished", i.bound);
        assert!(s.complete, "{what}");
        assert_eq!(
            (i.bound, i.generated, i.expanded),
            (s.bound, s.generated, s.expanded),
            "{what}: bound {}",
            i.bound
        );
    }
    let s = single.last().unwrap();
    assert_eq!(last.bound, s.bound, "{what}");
    assert!(
        !s.complete && !last.complete(),
        "{what}: the last bound is reported unfinished"
    );
    // The pieces finish the last bound past the solution, IDA* stops at it.
    assert!(last.generated >= s.generated, "{what}");
}

#[test]
fn korfs_instances_split_in_8_pieces_count_what_one_process_counts() {
    let instances = korf(1_400_000);
    assert!(instances.len() >= 7);
    for inst in &instances {
        let dir = tempfile::tempdir().unwrap();
        let req = request(
            &inst.board,
            Goal::BlankFirst,
            Algorithm::Idastar,
            HeuristicKind::Manhattan,
            8,
        );
        let c = split_run(dir.path(), &req);
        let single = single_idastar_manhattan(&inst.board);
        let what = format!("Korf #{}", inst.id);
        // The single-process counts are Korf's published ones (the independent check).
        let per: u64 = single.per_iteration.iter().map(|i| i.generated).sum();
        assert_eq!(
            per - (single.per_iteration.len() as u64 - 1),
            inst.generated,
            "{what}"
        );
        assert_accounting(&c, &single.per_iteration, &what);
        assert_eq!(c.status, Some(Outcome::Solved), "{what}");
        let moves = c.moves.as_ref().unwrap();
        assert_eq!(moves.len(), inst.optimal, "{what}: optimal length");
        assert!(
            inst.board.replay_reaches_goal(moves, Goal::BlankFirst),
            "{what}"
        );
        // The first solution in IDA*'s order, as one process finds it.
        assert_eq!(
            Some(moves),
            single.moves.as_ref(),
            "{what}: IDA*'s own solution"
        );
        assert_eq!(c.row.moves, Some(inst.optimal as u32));
        assert_eq!(c.row.iterations, Some(single.per_iteration.len() as u32));
        let solved = c
            .pieces
            .iter()
            .filter(|p| p.state == Some(PieceState::Solved))
            .count();
        assert!(solved >= 1, "{what}");
        assert!(
            c.pieces
                .iter()
                .all(|p| matches!(p.state, Some(PieceState::Solved | PieceState::Covered))),
            "{what}: {:?}",
            c.pieces
        );
        let text = std::fs::read_to_string(dir.path().join("iterations.csv")).unwrap();
        assert_eq!(
            text.lines().next(),
            Some("bound,generated,expanded,pieces_completed,pieces")
        );
        assert_eq!(text.lines().count(), c.iterations.len() + 1);
    }
}

#[test]
fn duplicate_pruning_and_linear_conflict_split_exactly_too() {
    for inst in korf(1_000_000).iter().take(3) {
        for (algorithm, h) in [
            (Algorithm::IdastarFsm, HeuristicKind::Manhattan),
            (Algorithm::Idastar, HeuristicKind::LinearConflict),
            (Algorithm::ParallelIdastarFsm, HeuristicKind::LinearConflict),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let c = split_run(
                dir.path(),
                &request(&inst.board, Goal::BlankFirst, algorithm, h.clone(), 5),
            );
            // The parallel forms prune like the sequential ones; a piece runs one thread.
            let sequential = match algorithm {
                Algorithm::ParallelIdastarFsm => Algorithm::IdastarFsm,
                a => a,
            };
            let single = solve(
                &inst.board,
                Goal::BlankFirst,
                sequential,
                &h,
                &Limits::default(),
            )
            .unwrap();
            let what = format!("Korf #{} {algorithm}/{h}", inst.id);
            assert_accounting(&c, &single.per_iteration, &what);
            assert_eq!(c.moves.as_ref().map(Vec::len), Some(inst.optimal), "{what}");
        }
    }
}

/// The nodes of IDA*'s tree (the move back pruned) `depth` moves from a 4 x 4 board with the
/// blank on `blank`, counted here by walking the grid (independent of the planner's walk).
fn tree_nodes_4x4(blank: usize, parent: Option<usize>, depth: usize) -> usize {
    if depth == 0 {
        return 1;
    }
    let (r, c) = (blank / 4, blank % 4);
    let mut next = Vec::new();
    if r > 0 {
        next.push(blank - 4);
    }
    if r < 3 {
        next.push(blank + 4);
    }
    if c > 0 {
        next.push(blank - 1);
    }
    if c < 3 {
        next.push(blank + 1);
    }
    next.into_iter()
        .filter(|&n| Some(n) != parent)
        .map(|n| tree_nodes_4x4(n, Some(blank), depth - 1))
        .sum()
}

/// Many pieces over a small frontier: the planner deepens the frontier past the first level
/// large enough (one node would outweigh a quarter piece) and gives the nodes out in frontier
/// order; the counts stay exact against the single process (tied to Korf's totals).
#[test]
fn a_frontier_deepened_for_many_pieces_still_counts_exactly() {
    let inst = korf(1_400_000).into_iter().last().unwrap();
    let mut req = request(
        &inst.board,
        Goal::BlankFirst,
        Algorithm::Idastar,
        HeuristicKind::Manhattan,
        24,
    );
    req.frontier = 100;
    let blank = inst.board.tiles().iter().position(|&t| t == 0).unwrap();
    let first = (0..)
        .find(|&d| tree_nodes_4x4(blank, None, d) >= 100)
        .unwrap();
    let plan = make_plan(&req).unwrap();
    assert!(
        plan.depth as usize > first,
        "depth {} (first level of 100 nodes: {first})",
        plan.depth
    );
    assert_eq!(
        plan.frontier.len(),
        tree_nodes_4x4(blank, None, plan.depth as usize)
    );
    // Heaviest node within a quarter of a piece's mean weight.
    let total: u64 = plan.frontier.iter().map(|n| n.weight).sum();
    let heaviest = plan.frontier.iter().map(|n| n.weight).max().unwrap();
    assert!(heaviest * 4 * 24 <= total, "{heaviest} of {total}");
    // In frontier order every node goes to a lightest piece so far.
    let mut load = [0u64; 24];
    for n in &plan.frontier {
        let k = n.piece as usize - 1;
        assert_eq!(load[k], *load.iter().min().unwrap());
        load[k] += n.weight;
    }
    let dir = tempfile::tempdir().unwrap();
    let c = split_run(dir.path(), &req);
    let single = single_idastar_manhattan(&inst.board);
    let per: u64 = single.per_iteration.iter().map(|i| i.generated).sum();
    assert_eq!(
        per - (single.per_iteration.len() as u64 - 1),
        inst.generated
    );
    let what = format!("Korf #{} in 24 pieces", inst.id);
    assert_accounting(&c, &single.per_iteration, &what);
    assert_eq!(c.moves.as_ref(), single.moves.as_ref(), "{what}");
}

/// A 24-puzzle with additive pattern databases (groups of four tiles, built in memory).
#[test]
fn a_24_puzzle_with_pattern_databases_splits_exactly() {
    pdb::set_cache_dir(None);
    let h: HeuristicKind = "pdb:1,2,3,4/5,6,7,8/9,10,11,12/13,14,15,16/17,18,19,20/21,22,23,24"
        .parse()
        .unwrap();
    for (len, seed) in [(60, 11), (70, 12)] {
        let tiles = common::large::random_walk(5, 5, Goal::BlankLast, len, seed);
        let board = Board::new(5, 5, tiles.iter().map(|&t| u32::from(t)).collect()).unwrap();
        // Fixed slices with both algorithms, and a shared queue (`--queue`).
        for (algorithm, queue) in [
            (Algorithm::Idastar, false),
            (Algorithm::IdastarFsm, false),
            (Algorithm::IdastarFsm, true),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let mut req = request(&board, Goal::BlankLast, algorithm, h.clone(), 8);
            req.queue = queue;
            let c = split_run(dir.path(), &req);
            let single = solve(&board, Goal::BlankLast, algorithm, &h, &Limits::default()).unwrap();
            let what = format!("5 x 5 walk {len} seed {seed}, {algorithm}, queue {queue}");
            assert!(
                single.per_iteration.len() >= 2,
                "{what}: too easy to test anything"
            );
            assert_accounting(&c, &single.per_iteration, &what);
            assert_eq!(
                c.moves.as_ref().map(Vec::len),
                single.moves.as_ref().map(Vec::len),
                "{what}"
            );
            assert!(board.replay_reaches_goal(c.moves.as_ref().unwrap(), Goal::BlankLast));
        }
    }
}

/// Boards past 64 cells split as the 4 x 4 does: a 9 x 9 (bytes a tile) and a 17 x 16 (two
/// bytes a tile), fixed slices and the queue, against the single-process search.
#[test]
fn boards_past_64_cells_split_exactly() {
    for (rows, cols, len, seed) in [(9, 9, 44, 5), (17, 16, 40, 9)] {
        let tiles = common::large::random_walk(rows, cols, Goal::BlankLast, len, seed);
        let board = Board::new(rows, cols, tiles.iter().map(|&t| u32::from(t)).collect()).unwrap();
        for (algorithm, h, queue) in [
            (Algorithm::Idastar, HeuristicKind::Manhattan, false),
            (Algorithm::IdastarFsm, HeuristicKind::LinearConflict, true),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let mut req = request(&board, Goal::BlankLast, algorithm, h.clone(), 4);
            req.queue = queue;
            let c = split_run(dir.path(), &req);
            let single = solve(&board, Goal::BlankLast, algorithm, &h, &Limits::default()).unwrap();
            let what = format!("{rows} x {cols} walk {len}, {algorithm} + {h}, queue {queue}");
            assert!(
                single.per_iteration.len() >= 2,
                "{what}: too easy to test anything"
            );
            assert_accounting(&c, &single.per_iteration, &what);
            let moves = c.moves.as_ref().unwrap();
            assert_eq!(
                Some(moves.len()),
                single.moves.as_ref().map(Vec::len),
                "{what}"
            );
            assert!(board.replay_reaches_goal(moves, Goal::BlankLast), "{what}");
        }
    }
}

/// Pieces stopped by a node limit keep their finished bounds; the combination then says how
/// far the search got (status, lower bound, the unfinished bound); rerun, the pieces continue
/// and the answer is the uninterrupted one.
#[test]
fn stopped_pieces_resume_and_give_the_same_answer() {
    let inst = korf(1_000_000).into_iter().next().unwrap();
    let req = request(
        &inst.board,
        Goal::BlankFirst,
        Algorithm::Idastar,
        HeuristicKind::Manhattan,
        4,
    );
    let whole = tempfile::tempdir().unwrap();
    let reference = split_run(whole.path(), &req);
    let dir = tempfile::tempdir().unwrap();
    let plan = make_plan(&req).unwrap();
    plan.write(dir.path()).unwrap();
    let limited = Limits {
        max_nodes: Some(20_000),
        ..Limits::default()
    };
    for k in 1..=plan.pieces {
        let f = run_piece(&plan, dir.path(), k, &limited).unwrap();
        assert_eq!(f.state, PieceState::Stopped, "piece {k}");
        assert!(
            !f.iterations.is_empty(),
            "piece {k} finished the first bounds"
        );
    }
    let partial = combine(dir.path()).unwrap();
    assert_eq!(partial.status, Some(Outcome::NodeLimit));
    let last = partial.iterations.last().unwrap();
    assert!(!last.complete());
    assert_eq!(partial.row.lower_bound, Some(last.bound));
    assert!(partial.moves.is_none());
    // The finished bounds already agree with the uninterrupted run.
    for (a, b) in partial
        .iterations
        .iter()
        .zip(&reference.iterations)
        .filter(|(a, _)| a.complete())
    {
        assert_eq!(a, b);
    }
    // Resumed concurrently, without limits.
    std::thread::scope(|s| {
        for k in 1..=plan.pieces {
            let (plan, dir) = (&plan, dir.path());
            s.spawn(move || run_piece(plan, dir, k, &Limits::default()).unwrap());
        }
    });
    let resumed = combine(dir.path()).unwrap();
    assert_eq!(resumed.status, Some(Outcome::Solved));
    assert_eq!(resumed.moves, reference.moves);
    let complete = |c: &Combined| -> Vec<_> {
        c.iterations
            .iter()
            .filter(|i| i.complete())
            .copied()
            .collect()
    };
    assert_eq!(complete(&resumed), complete(&reference));
    assert!(resumed.pieces.iter().all(|p| p.sessions == 2));
}

/// The last bound is cut at the solution: run one after another, the piece holding the
/// single-process solution's frontier node first, every other piece searches its frontier
/// nodes before that node to the end of the bound and stops at its first node after it. The
/// answer is single-process IDA*'s solution; the last bound's counts lie between
/// single-process IDA*'s last iteration and that plus the tree above the frontier (the
/// pieces' subtrees there are exactly the ones IDA* searched), not the whole bound.
#[test]
fn pieces_stop_at_the_solutions_frontier_node_in_its_bound() {
    for inst in korf(1_400_000).iter().take(4) {
        let req = request(
            &inst.board,
            Goal::BlankFirst,
            Algorithm::Idastar,
            HeuristicKind::Manhattan,
            8,
        );
        let single = single_idastar_manhattan(&inst.board);
        let what = format!("Korf #{}", inst.id);
        let solution = single.moves.clone().unwrap();
        let last = *single.per_iteration.last().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let plan = make_plan(&req).unwrap();
        plan.write(dir.path()).unwrap();
        // The frontier node the single-process solution passes through, and its piece.
        let prefix = npuzzle::board::moves_to_string(&solution[..plan.depth as usize]);
        let node = plan
            .frontier
            .iter()
            .position(|n| n.moves == prefix)
            .unwrap();
        let solver = plan.frontier[node].piece;
        let f = run_piece(&plan, dir.path(), solver, &Limits::default()).unwrap();
        assert_eq!(f.state, PieceState::Solved, "{what}");
        let p = f.partial.as_ref().unwrap();
        assert_eq!((p.bound, p.node), (last.bound, Some(node)), "{what}");
        let mut cut_short = 0;
        for k in (1..=plan.pieces).filter(|&k| k != solver) {
            let f = run_piece(&plan, dir.path(), k, &Limits::default()).unwrap();
            assert_eq!(f.state, PieceState::Covered, "{what}: piece {k}");
            let before = plan.nodes_of(k).iter().filter(|&&i| i < node).count();
            if before == plan.nodes_of(k).len() {
                // Every node before the solution's: the bound finished, then covered.
                assert_eq!(
                    f.iterations.last().map(|i| i.bound),
                    Some(last.bound),
                    "{what}: piece {k}"
                );
                assert!(f.partial.is_none(), "{what}: piece {k}");
                continue;
            }
            let p = f.partial.as_ref().unwrap();
            assert_eq!(p.bound, last.bound, "{what}: piece {k}");
            assert_eq!(
                p.cut.map(|c| (c.bound, c.node)),
                Some((last.bound, node)),
                "{what}: piece {k}"
            );
            cut_short += 1;
            if before == 0 {
                assert_eq!((p.generated, p.expanded), (0, 0), "{what}: piece {k}");
            }
        }
        let c = combine(dir.path()).unwrap();
        assert_eq!(c.status, Some(Outcome::Solved), "{what}");
        assert_eq!(
            c.moves.as_ref(),
            Some(&solution),
            "{what}: IDA*'s own solution"
        );
        assert_eq!(solution.len(), inst.optimal, "{what}");
        assert_accounting(&c, &single.per_iteration, &what);
        let (_, top) = plan.top_counts(last.bound);
        let cut = c.iterations.last().unwrap();
        assert!(
            last.generated <= cut.generated && cut.generated <= last.generated + top,
            "{what}: last bound {} generated, single-process {}, tree above {top}",
            cut.generated,
            last.generated
        );
        let message = c.row.message.as_deref().unwrap();
        assert!(
            message.contains(&format!("stopped at the solution's frontier node {node}")),
            "{what}: {message}"
        );
        // The pieces left with frontier nodes after the solution's skipped them.
        let skipping = (1..=plan.pieces)
            .filter(|&k| k != solver && plan.nodes_of(k).iter().any(|&i| i > node))
            .count();
        assert_eq!(cut_short, skipping, "{what}");
        assert!(skipping >= 1, "{what}: nothing to cut");
    }
}

/// Runs pieces 1..=n of the plan in `out` as n processes at once, each to a successful exit.
fn run_pieces_as_processes(out: &str, n: u32) {
    let children: Vec<_> = (1..=n)
        .map(|k| {
            let k = k.to_string();
            Command::new(BENCH)
                .args(["split", "piece", "--out", out, "--piece", &k, "-q"])
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
}

fn bench(args: &[&str]) -> std::process::Output {
    Command::new(BENCH).args(args).output().unwrap()
}

/// The command line: 8 pieces as 8 processes at once, combined into one results row and
/// `iterations.csv`, against `bench solve` of the same board; errors named.
#[test]
fn pieces_as_processes_combine_into_one_results_row() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let data = common::data_dir().join("korf100.tsv");
    let out = d.join("s");
    let (data, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    let plan = [
        "split",
        "plan",
        "--instances",
        data,
        "--id",
        "79",
        "--pieces",
        "8",
        "--out",
        out_s,
        "-q",
    ];
    let o = bench(&plan);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A second plan into the same directory, a wrong id, a storing algorithm: refused.
    let o = bench(&plan);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("holds a plan already"));
    let o = bench(&[
        "split",
        "plan",
        "--instances",
        data,
        "--id",
        "1000",
        "--pieces",
        "2",
        "--out",
        d.join("x").to_str().unwrap(),
    ]);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--id 1000: no instance"),
        "{o:?}"
    );
    let o = bench(&[
        "split",
        "plan",
        "--instances",
        data,
        "--id",
        "79",
        "--pieces",
        "2",
        "--algos",
        "astar",
        "--out",
        d.join("y").to_str().unwrap(),
    ]);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--algos astar: a split search runs IDA*"),
        "{o:?}"
    );
    // Combining before any piece ran: not solved, the unfinished pieces named, exit 1.
    let o = bench(&["split", "combine", "--out", out_s]);
    assert_eq!(o.status.code(), Some(1));
    let row = std::fs::read_to_string(out.join("result.csv")).unwrap();
    assert!(row.contains("unfinished pieces: 1 2 3 4 5 6 7 8"), "{row}");
    run_pieces_as_processes(out_s, 8);
    let o = bench(&["split", "combine", "--out", out_s, "-q"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // One results row, read back by the results reader.
    let file = npuzzle::results::read::read(&out.join("result.csv")).unwrap();
    assert_eq!(file.rows.len(), 1);
    let row = &file.rows[0].1;
    assert_eq!((row.status.name(), row.moves), ("solved", Some(42)));
    assert_eq!(
        (row.algorithm.as_str(), row.heuristic.as_str()),
        ("idastar", "manhattan")
    );
    assert!(row.message.as_deref().unwrap().contains("8 pieces"));
    let board = korf4_board();
    let moves = npuzzle::board::moves_from_str(row.solution.as_deref().unwrap()).unwrap();
    assert!(board.replay_reaches_goal(&moves, Goal::BlankFirst));
    let single = single_idastar_manhattan(&board);
    let lines: Vec<String> = iteration_lines(&out);
    assert_eq!(lines.len(), single.per_iteration.len() + 1);
    for (line, s) in lines[1..]
        .iter()
        .zip(&single.per_iteration)
        .filter(|(_, s)| s.complete)
    {
        assert_eq!(
            line,
            &format!("{},{},{},8,8", s.bound, s.generated, s.expanded)
        );
    }
    assert!(lines.last().unwrap().ends_with(",8") && !lines.last().unwrap().ends_with(",8,8"));
}

/// A plan changed after planning, and a piece file of another plan, are refused by name.
#[test]
fn changed_plans_and_foreign_piece_files_are_refused() {
    let inst = korf(1_000_000).into_iter().next().unwrap();
    let req = request(
        &inst.board,
        Goal::BlankFirst,
        Algorithm::Idastar,
        HeuristicKind::Manhattan,
        2,
    );
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    split_run(a.path(), &req);
    let mut other = req.clone();
    other.pieces = 3;
    let plan_b = make_plan(&other).unwrap();
    plan_b.write(b.path()).unwrap();
    std::fs::copy(a.path().join("piece-1.json"), b.path().join("piece-1.json")).unwrap();
    let e = combine(b.path()).unwrap_err().to_string();
    assert!(
        e.contains("piece-1.json") && e.contains("belongs to another plan"),
        "{e}"
    );
    let e = run_piece(&plan_b, b.path(), 1, &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("belongs to another plan"), "{e}");
    let path = a.path().join("plan.json");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen("\"piece\": 1", "\"piece\": 2", 1)).unwrap();
    let e = combine(a.path()).unwrap_err().to_string();
    assert!(e.contains("plan.json") && e.contains("checksum"), "{e}");
}

/// `--piece 1-8 --no-lockstep`: the eight pieces as threads of one process give the single process's counts
/// for every finished bound and its solution; a list past the plan's pieces is refused.
#[test]
fn a_piece_list_runs_the_pieces_in_one_process() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s");
    let data = common::data_dir().join("korf100.tsv");
    let (data, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    let o = bench(&[
        "split",
        "plan",
        "--instances",
        data,
        "--id",
        "79",
        "--pieces",
        "8",
        "--out",
        out_s,
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = bench(&["split", "piece", "--out", out_s, "--piece", "7-9"]);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--piece 9: the plan has pieces 1 to 8"),
        "{o:?}"
    );
    assert!(!out.join("piece-7.json").exists(), "nothing ran");
    // Without waits (and a heartbeat timeout given): the same answer and counts.
    let o = bench(&[
        "split",
        "piece",
        "--out",
        out_s,
        "--piece",
        "1-8",
        "--no-lockstep",
        "--stale-after",
        "5s",
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = bench(&["split", "combine", "--out", out_s, "-q"]);
    assert_eq!(o.status.code(), Some(0));
    let board = korf4_board();
    let single = single_idastar_manhattan(&board);
    let lines: Vec<String> = iteration_lines(&out);
    assert_eq!(lines.len(), single.per_iteration.len() + 1);
    for (line, s) in lines[1..].iter().zip(&single.per_iteration) {
        if s.complete {
            let want = format!("{},{},{},8,8", s.bound, s.generated, s.expanded);
            assert_eq!(line, &want);
        }
    }
    let file = npuzzle::results::read::read(&out.join("result.csv")).unwrap();
    let row = &file.rows[0].1;
    let want = npuzzle::board::moves_to_string(single.moves.as_ref().unwrap());
    assert_eq!(row.solution.as_deref(), Some(want.as_str()));
}

/// The split's finished bounds against the single-process IDA*'s (node for node) and the
/// last bound, the solution's, reported unfinished; nothing said of the last bound's counts
/// (with `--any-optimal` the pieces stop at the first solution found, anywhere in the bound).
fn assert_finished_bounds(c: &Combined, single: &[IterationCount], what: &str) {
    assert_eq!(c.iterations.len(), single.len(), "{what}: iterations");
    let (last, before) = c.iterations.split_last().unwrap();
    for (s, i) in single.iter().zip(before) {
        assert!(i.complete() && s.complete, "{what}: bound {}", i.bound);
        assert_eq!(
            (i.bound, i.generated, i.expanded),
            (s.bound, s.generated, s.expanded),
            "{what}: bound {}",
            i.bound
        );
    }
    assert_eq!(last.bound, single.last().unwrap().bound, "{what}");
    assert!(
        !last.complete(),
        "{what}: the last bound is reported unfinished"
    );
}

/// The frontier node the single-process solution passes through.
fn solution_node(plan: &npuzzle::split::plan::Plan, solution: &[npuzzle::board::Move]) -> usize {
    let prefix = npuzzle::board::moves_to_string(&solution[..plan.depth as usize]);
    plan.frontier
        .iter()
        .position(|n| n.moves == prefix)
        .unwrap()
}

/// Bounds in step: a piece that has finished a bound does not start the next while another
/// registered, live piece (its heartbeat kept going here) has not finished the bounds below
/// it; once that piece ends, it goes on, and the answer and counts are the single process's.
#[test]
fn a_piece_waits_before_a_bound_for_a_live_piece_behind() {
    use npuzzle::split::piece::{PieceOptions, run_piece_with};
    use npuzzle::split::step::Heartbeat;
    let inst = korf(1_000_000).into_iter().next().unwrap();
    let req = request(
        &inst.board,
        Goal::BlankFirst,
        Algorithm::Idastar,
        HeuristicKind::Manhattan,
        2,
    );
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let plan = make_plan(&req).unwrap();
    plan.write(d).unwrap();
    // Piece 2 registered and behind: its file at an early bound (a one-node limit stopped it
    // there), its heartbeat alive.
    let one_node = Limits {
        max_nodes: Some(1),
        ..Limits::default()
    };
    let f = run_piece(&plan, d, 2, &one_node).unwrap();
    assert_eq!(f.state, PieceState::Stopped);
    let behind = f
        .iterations
        .last()
        .map_or(plan.initial_bound, |i| i.next_bound);
    assert!(
        (behind as usize) < inst.optimal,
        "piece 2 stopped before the last bound"
    );
    let beat = Heartbeat::start(d, 2).unwrap();
    let options = PieceOptions {
        lockstep: true,
        stale_after: std::time::Duration::from_secs(3600),
    };
    std::thread::scope(|s| {
        let first = s.spawn(|| run_piece_with(&plan, d, 1, &Limits::default(), &options).unwrap());
        let bounds_of_1 = || {
            npuzzle::split::piece::read_piece(&plan, d, 1)
                .unwrap()
                .map(|f| {
                    (
                        f.iterations.len(),
                        f.iterations.last().map(|i| i.next_bound),
                    )
                })
        };
        // Piece 1 finishes every bound up to piece 2's, then must wait.
        let reached = loop {
            if let Some((n, Some(next))) = bounds_of_1()
                && next > behind
            {
                break n;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        };
        // However long we look, piece 1 stays there: piece 2 holds it back.
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert_eq!(
            bounds_of_1().unwrap().0,
            reached,
            "piece 1 went past a live piece behind"
        );
        assert!(!first.is_finished());
        drop(beat);
        run_piece(&plan, d, 2, &Limits::default()).unwrap();
        let f = first.join().unwrap();
        assert!(f.waited_ms >= 300.0, "{}", f.waited_ms);
    });
    let c = combine(d).unwrap();
    let single = single_idastar_manhattan(&inst.board);
    assert_accounting(&c, &single.per_iteration, "in step");
    assert_eq!(c.moves.as_ref(), single.moves.as_ref());
    assert!(
        c.row
            .message
            .as_deref()
            .unwrap()
            .contains("waits for other pieces")
    );
}

/// A piece that never started (no file, no heartbeat) and one that was killed (its file
/// mid-search, its heartbeat left behind and never rewritten) do not hold the others back:
/// they end, and once the two are run, the answer and counts are the single process's.
#[test]
fn pieces_never_started_or_killed_do_not_block_the_others() {
    use npuzzle::split::piece::{PieceOptions, run_piece_with};
    for inst in korf(1_400_000).iter().take(2) {
        let req = request(
            &inst.board,
            Goal::BlankFirst,
            Algorithm::Idastar,
            HeuristicKind::Manhattan,
            6,
        );
        let what = format!("Korf #{}", inst.id);
        let single = single_idastar_manhattan(&inst.board);
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let plan = make_plan(&req).unwrap();
        plan.write(d).unwrap();
        let solver = plan.frontier[solution_node(&plan, single.moves.as_ref().unwrap())].piece;
        // Two pieces other than the solver's: one killed after a first bound, one never run.
        let mut others = (1..=plan.pieces).filter(|&k| k != solver);
        let (killed, absent) = (others.next().unwrap(), others.next().unwrap());
        let limited = Limits {
            max_nodes: Some(2_000),
            ..Limits::default()
        };
        let f = run_piece(&plan, d, killed, &limited).unwrap();
        assert_eq!(f.state, PieceState::Stopped, "{what}");
        std::fs::create_dir_all(d.join("alive")).unwrap();
        std::fs::write(d.join(format!("alive/piece-{killed}")), "99999 3\n").unwrap();
        let options = PieceOptions {
            lockstep: true,
            stale_after: std::time::Duration::from_secs(1),
        };
        std::thread::scope(|s| {
            for k in (1..=plan.pieces).filter(|&k| k != killed && k != absent) {
                let (plan, options) = (&plan, &options);
                s.spawn(move || run_piece_with(plan, d, k, &Limits::default(), options).unwrap());
            }
        });
        let partial = combine(d).unwrap();
        assert_ne!(partial.status, Some(Outcome::Solved), "{what}");
        for k in [killed, absent] {
            run_piece(&plan, d, k, &Limits::default()).unwrap();
        }
        let c = combine(d).unwrap();
        assert_eq!(c.status, Some(Outcome::Solved), "{what}");
        assert_accounting(&c, &single.per_iteration, &what);
        assert_eq!(c.moves.as_ref(), single.moves.as_ref(), "{what}");
    }
}

/// `--any-optimal`: every piece stops at the first solution found; its length is Korf's
/// published optimal one, every bound before it is the single process's node for node (tied
/// to Korf's totals), and the last bound is reported unfinished. As threads, and as
/// processes through the command line.
#[test]
fn any_optimal_solutions_are_optimal_and_finished_bounds_exact() {
    for inst in korf(1_400_000).iter().take(4) {
        let mut req = request(
            &inst.board,
            Goal::BlankFirst,
            Algorithm::Idastar,
            HeuristicKind::Manhattan,
            8,
        );
        req.any_optimal = true;
        let dir = tempfile::tempdir().unwrap();
        let c = split_run(dir.path(), &req);
        let single = single_idastar_manhattan(&inst.board);
        let what = format!("Korf #{} any optimal", inst.id);
        assert_eq!(c.status, Some(Outcome::Solved), "{what}");
        let moves = c.moves.as_ref().unwrap();
        assert_eq!(moves.len(), inst.optimal, "{what}: Korf's optimal length");
        assert!(
            inst.board.replay_reaches_goal(moves, Goal::BlankFirst),
            "{what}"
        );
        assert_finished_bounds(&c, &single.per_iteration, &what);
        assert!(
            c.row.message.as_deref().unwrap().contains("--any-optimal"),
            "{what}"
        );
    }
    // Through the command line, 8 processes at once.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s");
    let data = common::data_dir().join("korf100.tsv");
    let (data, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    let o = bench(&[
        "split",
        "plan",
        "--instances",
        data,
        "--id",
        "79",
        "--pieces",
        "8",
        "--out",
        out_s,
        "--any-optimal",
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    run_pieces_as_processes(out_s, 8);
    let o = bench(&["split", "combine", "--out", out_s, "-q"]);
    assert_eq!(o.status.code(), Some(0));
    let c = combine(&out).unwrap();
    let board = korf4_board();
    let single = single_idastar_manhattan(&board);
    // Korf's published optimal length of this instance.
    assert_eq!(c.moves.as_ref().map(Vec::len), Some(42));
    assert!(board.replay_reaches_goal(c.moves.as_ref().unwrap(), Goal::BlankFirst));
    assert_finished_bounds(&c, &single.per_iteration, "Korf #79 any optimal, processes");
}

/// A queue plan (`--queue`): 8 pieces at once take the frontier's units in order; every
/// finished bound is the single process's node for node (tied to Korf's totals by the first
/// test), the answer IDA*'s own solution at Korf's optimal length. With `--any-optimal`, an
/// optimal solution and the same finished bounds.
#[test]
fn queue_pieces_count_what_one_process_counts() {
    for inst in korf(1_400_000).iter().take(3) {
        let single = single_idastar_manhattan(&inst.board);
        for any_optimal in [false, true] {
            let mut req = request(
                &inst.board,
                Goal::BlankFirst,
                Algorithm::Idastar,
                HeuristicKind::Manhattan,
                8,
            );
            (req.queue, req.any_optimal) = (true, any_optimal);
            let dir = tempfile::tempdir().unwrap();
            let c = split_run(dir.path(), &req);
            let what = format!("Korf #{} queue, any optimal {any_optimal}", inst.id);
            assert_eq!(c.status, Some(Outcome::Solved), "{what}");
            let moves = c.moves.as_ref().unwrap();
            assert_eq!(moves.len(), inst.optimal, "{what}: Korf's optimal length");
            assert!(
                inst.board.replay_reaches_goal(moves, Goal::BlankFirst),
                "{what}"
            );
            if any_optimal {
                assert_finished_bounds(&c, &single.per_iteration, &what);
            } else {
                assert_accounting(&c, &single.per_iteration, &what);
                assert_eq!(Some(moves), single.moves.as_ref(), "{what}: IDA*'s own");
                // Every bound before the last was finished by all pieces together.
                for i in &c.iterations[..c.iterations.len() - 1] {
                    assert_eq!((i.pieces_completed, i.pieces), (8, 8), "{what}");
                }
            }
            assert!(
                c.pieces
                    .iter()
                    .all(|p| matches!(p.state, Some(PieceState::Solved | PieceState::Covered))),
                "{what}: {:?}",
                c.pieces
            );
        }
    }
}

/// Queue pieces one after another: the first searches every unit of every bound and solves;
/// the others, started after it, find nothing left to search and end covered. The answer
/// and counts are the single process's.
#[test]
fn a_queue_piece_alone_searches_everything_and_the_rest_are_covered() {
    let inst = korf(1_000_000).into_iter().next().unwrap();
    let single = single_idastar_manhattan(&inst.board);
    let req = queue_request(&inst.board, 4);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let plan = make_plan(&req).unwrap();
    plan.write(d).unwrap();
    let first = run_piece(&plan, d, 1, &Limits::default()).unwrap();
    assert_eq!(first.state, PieceState::Solved);
    for k in 2..=4 {
        let f = run_piece(&plan, d, k, &Limits::default()).unwrap();
        assert_eq!(f.state, PieceState::Covered, "piece {k}");
        assert_eq!(f.iterations.len(), first.iterations.len(), "piece {k}");
    }
    let c = combine(d).unwrap();
    assert_accounting(&c, &single.per_iteration, "one piece after another");
    assert_eq!(c.moves.as_ref(), single.moves.as_ref());
}

/// A queue plan's request: IDA* + Manhattan on a blank-first board.
fn queue_request(board: &Board, pieces: u32) -> PlanRequest {
    let mut req = request(
        board,
        Goal::BlankFirst,
        Algorithm::Idastar,
        HeuristicKind::Manhattan,
        pieces,
    );
    req.queue = true;
    req
}

/// A queue piece stopped by a node limit leaves its unit claimed; once its heartbeat has gone
/// stale the running pieces take the unit over (a claim of the next generation) and finish
/// the search with the single process's answer and counts; rerun, the stopped piece finds
/// the solution announced and ends covered.
#[test]
fn a_stopped_queue_pieces_unit_is_taken_over() {
    use npuzzle::split::piece::{PieceOptions, run_piece_with};
    let inst = korf(1_000_000).into_iter().next().unwrap();
    let single = single_idastar_manhattan(&inst.board);
    let req = queue_request(&inst.board, 4);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let plan = make_plan(&req).unwrap();
    plan.write(d).unwrap();
    let limited = Limits {
        max_nodes: Some(20_000),
        ..Limits::default()
    };
    let f = run_piece(&plan, d, 2, &limited).unwrap();
    assert_eq!(f.state, PieceState::Stopped);
    // Its heartbeat left behind, never rewritten (a killed process's).
    std::fs::create_dir_all(d.join("alive")).unwrap();
    std::fs::write(d.join("alive/piece-2"), "99999 3\n").unwrap();
    let options = PieceOptions {
        lockstep: true,
        stale_after: std::time::Duration::from_secs(1),
    };
    std::thread::scope(|s| {
        for k in [1, 3, 4] {
            let (plan, options) = (&plan, &options);
            s.spawn(move || run_piece_with(plan, d, k, &Limits::default(), options).unwrap());
        }
    });
    let taken_over = std::fs::read_dir(d.join("queue"))
        .unwrap()
        .flat_map(|b| std::fs::read_dir(b.unwrap().path()).unwrap())
        .any(|e| {
            e.unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".claim-1")
        });
    assert!(taken_over, "the stopped piece's unit was claimed again");
    let c = combine(d).unwrap();
    assert_eq!(c.status, Some(Outcome::Solved));
    assert_accounting(&c, &single.per_iteration, "after a takeover");
    assert_eq!(c.moves.as_ref(), single.moves.as_ref());
    let f = run_piece(&plan, d, 2, &Limits::default()).unwrap();
    assert_eq!(f.state, PieceState::Covered);
    assert_eq!(combine(d).unwrap().moves, c.moves);
}

/// `bench split plan --queue`: 8 pieces as 8 processes at once; the finished bounds in
/// `iterations.csv` are the single process's, every piece counted as having finished them,
/// and the solution is IDA*'s own.
#[test]
fn queue_pieces_as_processes_through_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s");
    let data = common::data_dir().join("korf100.tsv");
    let (data, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    let o = bench(&[
        "split",
        "plan",
        "--instances",
        data,
        "--id",
        "79",
        "--pieces",
        "8",
        "--out",
        out_s,
        "--queue",
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    run_pieces_as_processes(out_s, 8);
    let o = bench(&["split", "combine", "--out", out_s, "-q"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let single = single_idastar_manhattan(&korf4_board());
    let lines = iteration_lines(&out);
    assert_eq!(lines.len(), single.per_iteration.len() + 1);
    for (line, s) in lines[1..].iter().zip(&single.per_iteration) {
        if s.complete {
            assert_eq!(
                line,
                &format!("{},{},{},8,8", s.bound, s.generated, s.expanded)
            );
        }
    }
    let file = npuzzle::results::read::read(&out.join("result.csv")).unwrap();
    let want = npuzzle::board::moves_to_string(single.moves.as_ref().unwrap());
    assert_eq!(file.rows[0].1.solution.as_deref(), Some(want.as_str()));
}

/// Queue units that cut frontier nodes again below the frontier (`queue::Below`), written
/// before the pieces start so that every bound has them: a third of the frontier nodes and
/// the solution's own node, each cut 1 to 3 moves below into parts of two nodes of its cut.
/// The pieces' counts of every finished bound are the single process's node for node (the
/// nodes between a frontier node and its cut counted once, by its first part), and the
/// answer is IDA*'s own solution, which lies inside a cut node's part.
#[test]
fn queue_units_cut_below_the_frontier_count_what_one_process_counts() {
    use npuzzle::split::queue::{Below, Units};
    for inst in korf(1_400_000).iter().take(2) {
        let single = single_idastar_manhattan(&inst.board);
        let solution = single.moves.clone().unwrap();
        let req = queue_request(&inst.board, 4);
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let plan = make_plan(&req).unwrap();
        plan.write(d).unwrap();
        let subtrees = plan.subtrees().unwrap();
        let solver = solution_node(&plan, &solution);
        let units = {
            let mut u = Units {
                starts: Vec::new(),
                basis_cpu_ms: None,
                below: Vec::new(),
            };
            for i in 0..plan.frontier.len() {
                let depth = 1 + (i % 3) as u32;
                if i % 3 != 0 && i != solver {
                    if i % 50 == 1 || u.below.last().is_some_and(Option::is_some) {
                        u.starts.push(i as u32);
                        u.below.push(None);
                    }
                    continue;
                }
                let moves = npuzzle::board::moves_from_str(&plan.frontier[i].moves).unwrap();
                let cut = subtrees.expand_below(&moves, depth as usize).frontier.len() as u32;
                for from in (0..cut).step_by(2) {
                    u.starts.push(i as u32);
                    let to = (from + 2).min(cut);
                    u.below.push(Some(Below { depth, from, to }));
                }
            }
            u
        };
        assert!(units.starts[0] == 0 && units.count() > plan.frontier.len() / 2);
        for it in &single.per_iteration {
            let b = d.join("queue").join(it.bound.to_string());
            std::fs::create_dir_all(&b).unwrap();
            std::fs::write(b.join("units"), serde_json::to_vec(&units).unwrap()).unwrap();
        }
        std::thread::scope(|s| {
            for k in 1..=plan.pieces {
                let plan = &plan;
                s.spawn(move || run_piece(plan, d, k, &Limits::default()).unwrap());
            }
        });
        let c = combine(d).unwrap();
        let what = format!("Korf #{} cut below", inst.id);
        assert_eq!(c.status, Some(Outcome::Solved), "{what}");
        assert_accounting(&c, &single.per_iteration, &what);
        assert_eq!(c.moves.as_ref(), Some(&solution), "{what}: IDA*'s own");
        // The solution was found inside a part of the solver's node, and named by its node of
        // the cut.
        let last = single.per_iteration.last().unwrap().bound;
        let records = npuzzle::split::queue::read_records(d, last)
            .unwrap()
            .unwrap();
        let found: Vec<_> = records
            .iter()
            .flatten()
            .filter(|r| r.solution.is_some())
            .map(|r| (r.unit, r.node, r.sub))
            .collect();
        assert!(!found.is_empty(), "{what}");
        let (u, node, sub) = found[0];
        let part = units.below(u).expect("a part below the frontier");
        assert_eq!(node, Some(solver), "{what}");
        assert!((part.from..part.to).contains(&sub), "{what}: {found:?}");
    }
}

/// `bench split combine` writes `result.csv` with a sidecar as any run's: its run id joins the
/// row, its one session says whether the search ended, and `bench merge` takes the file (and
/// refuses it while pieces are missing).
#[test]
fn a_combined_result_has_a_sidecar_that_merge_and_report_read() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let data = common::data_dir().join("korf100.tsv");
    let out = d.join("s");
    let (data, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    let ok = |o: std::process::Output| {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    ok(bench(&[
        "split",
        "plan",
        "--instances",
        data,
        "--id",
        "79",
        "--pieces",
        "2",
        "--out",
        out_s,
        "-q",
    ]));
    let sidecar = out.join("result.csv.meta.json");
    let result = out.join("result.csv");
    let merged = |name: &str| {
        bench(&[
            "merge",
            result.to_str().unwrap(),
            "--out",
            d.join(name).to_str().unwrap(),
        ])
    };
    // Before any piece ran: the session is interrupted, and merge refuses the file.
    let o = bench(&["split", "combine", "--out", out_s, "-q"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sidecar).unwrap()).unwrap();
    assert_eq!(meta["sessions"][0]["status"], "interrupted", "{meta}");
    assert!(!merged("early.csv").status.success());
    ok(bench(&[
        "split", "piece", "--out", out_s, "--piece", "1-2", "-q",
    ]));
    ok(bench(&["split", "combine", "--out", out_s, "-q"]));
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sidecar).unwrap()).unwrap();
    let csv = std::fs::read_to_string(&result).unwrap();
    let run_id = meta["run_id"].as_str().unwrap();
    assert!(run_id.starts_with("split-"), "{meta}");
    assert!(csv.lines().nth(1).unwrap().starts_with(run_id), "{csv}");
    assert_eq!(meta["sessions"][0]["status"], "complete", "{meta}");
    assert_eq!(meta["jobs_planned"], 1);
    assert_eq!(meta["instance_files"][0]["rows"], 4);
    assert_eq!(meta["instance_files"][0]["goal"], "blank-first");
    assert_eq!(meta["algorithms"][0], "idastar");
    // The instance file's checksum is the file's own (64 hex digits).
    assert_eq!(
        meta["instance_files"][0]["sha256"].as_str().unwrap().len(),
        64
    );
    ok(merged("m.csv"));
    let m = std::fs::read_to_string(d.join("m.csv")).unwrap();
    assert_eq!(m.lines().count(), 2, "{m}");
}
