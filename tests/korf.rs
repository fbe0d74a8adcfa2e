//! Korf's 100 random 15-puzzle instances (Korf 1985), blank-first goal: optimal lengths and
//! the published IDA* + Manhattan node counts, from `data/korf100.tsv`.

use crate::common;

use common::read_tsv;
use npuzzle::{Algorithm, Board, Goal, HeuristicKind, Limits, solve};

struct Instance {
    id: u32,
    optimal: usize,
    generated: u64,
    expanded: u64,
    board: Board,
}

fn instances() -> Vec<Instance> {
    read_tsv("korf100.tsv")
        .into_iter()
        .map(|r| Instance {
            id: r[0].parse().unwrap(),
            optimal: r[1].parse().unwrap(),
            generated: r[2].parse().unwrap(),
            expanded: r[3].parse().unwrap(),
            board: Board::new(4, 4, r[4].split(' ').map(|t| t.parse().unwrap()).collect()).unwrap(),
        })
        .collect()
}

#[test]
fn the_data_holds_korfs_published_total() {
    let all = instances();
    assert_eq!(all.len(), 100);
    assert_eq!(all.iter().map(|i| i.generated).sum::<u64>(), 36_302_808_031);
}

/// Every instance under 20 million generated nodes, node for node.
#[test]
fn idastar_manhattan_reproduces_korfs_node_counts() {
    let mut checked = 0;
    for inst in instances().iter().filter(|i| i.generated < 20_000_000) {
        let r = solve(
            &inst.board,
            Goal::BlankFirst,
            Algorithm::Idastar,
            &HeuristicKind::Manhattan,
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(r.moves.unwrap().len(), inst.optimal, "instance {}", inst.id);
        assert_eq!(
            r.stats.generated, inst.generated,
            "generated, instance {}",
            inst.id
        );
        assert_eq!(
            r.stats.expanded, inst.expanded,
            "expanded, instance {}",
            inst.id
        );
        checked += 1;
    }
    assert!(checked >= 20);
}

#[test]
fn idastar_linear_conflict_solves_the_shorter_instances_optimally() {
    let mut checked = 0;
    for inst in instances().iter().filter(|i| i.optimal <= 45) {
        let r = solve(
            &inst.board,
            Goal::BlankFirst,
            Algorithm::Idastar,
            &HeuristicKind::LinearConflict,
            &Limits::default(),
        )
        .unwrap();
        let moves = r.moves.unwrap();
        assert_eq!(moves.len(), inst.optimal, "instance {}", inst.id);
        assert!(inst.board.replay_reaches_goal(&moves, Goal::BlankFirst));
        // Fewer nodes than Manhattan, as the stronger heuristic must.
        assert!(r.stats.generated < inst.generated, "instance {}", inst.id);
        checked += 1;
    }
    assert!(checked >= 5);
}

#[test]
fn astar_solves_an_easy_instance_optimally() {
    let all = instances();
    let inst = all.iter().min_by_key(|i| i.generated).unwrap();
    let r = solve(
        &inst.board,
        Goal::BlankFirst,
        Algorithm::Astar,
        &HeuristicKind::LinearConflict,
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(r.moves.unwrap().len(), inst.optimal);
}
