//! Inner-loop benchmarks: `cargo bench --bench search`.
//!
//! Each benchmark reports throughput in generated nodes (criterion's "elements/s") and asserts
//! the solution length against the published optimum inside the measured closure, so a fast but
//! wrong change fails here too.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use npuzzle::{Algorithm, Board, Goal, HeuristicKind, Limits, Status, solve};

fn data(name: &str) -> String {
    let beside = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/");
    std::fs::read_to_string(format!("{beside}{name}"))
        .or_else(|_| std::fs::read_to_string(format!("/work/shared/data/{name}")))
        .expect("benchmark data in ../shared/data")
}

/// Korf instance `id`: (board, optimal length).
fn korf(id: &str) -> (Board, usize) {
    let text = data("korf100.tsv");
    let row: Vec<&str> = text
        .lines()
        .find(|l| l.split('\t').next() == Some(id))
        .expect("instance")
        .split('\t')
        .collect();
    let tiles = row[4].split(' ').map(|t| t.parse().unwrap()).collect();
    (Board::new(4, 4, tiles).unwrap(), row[1].parse().unwrap())
}

#[allow(clippy::too_many_arguments)]
fn bench_case(
    c: &mut Criterion,
    name: &str,
    board: &Board,
    goal: Goal,
    algo: Algorithm,
    h: HeuristicKind,
    limits: Limits,
    expect_len: Option<usize>,
) {
    let probe = solve(board, goal, algo, &h, &limits).unwrap();
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.throughput(Throughput::Elements(probe.stats.generated));
    group.bench_function("run", |b| {
        b.iter(|| {
            let r = solve(black_box(board), goal, algo, &h, &limits).unwrap();
            match expect_len {
                Some(len) => assert_eq!(r.moves.map(|m| m.len()), Some(len)),
                None => assert_eq!(r.status, Status::NodeLimit),
            }
        })
    });
    group.finish();
}

fn searches(c: &mut Criterion) {
    let (korf79, opt79) = korf("79");
    bench_case(
        c,
        "idastar-manhattan-korf79",
        &korf79,
        Goal::BlankFirst,
        Algorithm::Idastar,
        HeuristicKind::Manhattan,
        Limits::default(),
        Some(opt79),
    );
    bench_case(
        c,
        "idastar-linear-conflict-korf79",
        &korf79,
        Goal::BlankFirst,
        Algorithm::Idastar,
        HeuristicKind::LinearConflict,
        Limits::default(),
        Some(opt79),
    );
    bench_case(
        c,
        "astar-manhattan-korf79",
        &korf79,
        Goal::BlankFirst,
        Algorithm::Astar,
        HeuristicKind::Manhattan,
        Limits::default(),
        Some(opt79),
    );
    bench_case(
        c,
        "astar-linear-conflict-korf79",
        &korf79,
        Goal::BlankFirst,
        Algorithm::Astar,
        HeuristicKind::LinearConflict,
        Limits::default(),
        Some(opt79),
    );

    // One of the two hardest 8-puzzle positions (31 moves, blank last): BFS and Dijkstra
    // touch essentially the whole 181,440-state space.
    let hardest = Board::new(3, 3, vec![8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap();
    bench_case(
        c,
        "bfs-3x3-whole-space",
        &hardest,
        Goal::BlankLast,
        Algorithm::Bfs,
        HeuristicKind::None,
        Limits::default(),
        Some(31),
    );
    bench_case(
        c,
        "dijkstra-3x3-whole-space",
        &hardest,
        Goal::BlankLast,
        Algorithm::Dijkstra,
        HeuristicKind::None,
        Limits::default(),
        Some(31),
    );

    // 5 x 5 (Korf & Felner instance 1) through the same code path: a fixed node budget.
    let text = data("korf24.tsv");
    let tiles = text.lines().nth(1).unwrap().split('\t').nth(1).unwrap();
    let board24 = Board::new(5, 5, tiles.split(' ').map(|t| t.parse().unwrap()).collect()).unwrap();
    let budget = Limits {
        max_nodes: Some(20_000_000),
        ..Limits::default()
    };
    bench_case(
        c,
        "idastar-manhattan-5x5-20M-nodes",
        &board24,
        Goal::BlankFirst,
        Algorithm::Idastar,
        HeuristicKind::Manhattan,
        budget.clone(),
        None,
    );
    let (korf2, _) = korf("2");
    bench_case(
        c,
        "idastar-manhattan-4x4-15M-nodes",
        &korf2,
        Goal::BlankFirst,
        Algorithm::Idastar,
        HeuristicKind::Manhattan,
        Limits {
            max_nodes: Some(15_000_000),
            ..Limits::default()
        },
        None,
    );
}

criterion_group!(benches, searches);
criterion_main!(benches);
