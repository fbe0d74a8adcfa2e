//! The measured side of a validation: IDA*'s own counts per iteration for an instance, under
//! a node budget, so that a prediction can be compared with reality iteration by iteration
//! (only iterations that ran to their end count: the last one stops at the first solution
//! or at the budget).

use crate::board::{Board, Goal};
use crate::heuristic::HeuristicKind;
use crate::search::{Algorithm, IterationCount, Limits, Outcome, SolveError, solve};

use super::tree::Pruning;

/// IDA*'s run on one instance.
#[derive(Debug, Clone)]
pub struct Measured {
    /// Every iteration it started, in order.
    pub iterations: Vec<IterationCount>,
    /// Whether it found a solution (then the last iteration is the optimal bound's, partial).
    pub solved: bool,
}

impl Measured {
    /// Nodes generated in the complete iteration with `bound`, if it ran to its end.
    pub fn complete(&self, bound: u32) -> Option<f64> {
        self.iterations
            .iter()
            .find(|it| it.bound == bound && it.complete)
            .map(|it| it.generated as f64)
    }

    /// The run's total of nodes generated (root counted once), if it was solved.
    pub fn total(&self) -> Option<f64> {
        self.solved.then(|| {
            1.0 + self
                .iterations
                .iter()
                .map(|it| it.generated as f64 - 1.0)
                .sum::<f64>()
        })
    }

    /// The solved run's last (partial) iteration: (bound, nodes generated).
    pub fn last(&self) -> Option<(u32, f64)> {
        self.iterations
            .last()
            .filter(|_| self.solved)
            .map(|it| (it.bound, it.generated as f64))
    }
}

/// Runs IDA* (`idastar`, or `idastar-fsm` for the automaton's tree) with `heuristic` on
/// `board` until it solves it or has generated `max_nodes` nodes.
pub fn measure(
    board: &Board,
    goal: Goal,
    heuristic: &HeuristicKind,
    pruning: Pruning,
    max_nodes: u64,
) -> Result<Measured, SolveError> {
    let algorithm = match pruning {
        Pruning::Parent => Algorithm::Idastar,
        Pruning::Automaton => Algorithm::IdastarFsm,
    };
    let limits = Limits {
        max_nodes: Some(max_nodes),
        ..Limits::default()
    };
    let report = solve(board, goal, algorithm, heuristic, &limits)?;
    Ok(Measured {
        solved: report.status == Outcome::Solved,
        iterations: report.per_iteration,
    })
}
