//! A piece of fixed slices: its bounds over its own frontier nodes, in step with the others.

use std::path::Path;

use crate::board::Move;
use crate::search::subtree::Subtrees;

use super::bound::{Session, SubtreeRoot, Watch, record_bound, run_bound};
use super::file::{PieceFile, PieceState, Position, read_piece};
use super::plan::Plan;
use super::step::{InStep, PieceOptions, Standing};
use super::{SplitError, piece_path, write_json};

/// Where piece `j` stands for a piece waiting before a bound.
pub(super) fn standing(plan: &Plan, dir: &Path, j: u32) -> Result<Standing, SplitError> {
    Ok(match read_piece(plan, dir, j)? {
        Some(f) if !f.state.is_final() => Standing::Next(
            f.iterations
                .last()
                .map_or(plan.initial_bound, |it| it.next_bound),
        ),
        _ => Standing::Done,
    })
}

/// A piece's bounds from where its file stands, each written to its file as it ends.
pub(super) fn run_bounds(
    plan: &Plan,
    dir: &Path,
    options: &PieceOptions,
    file: &mut PieceFile,
    subtrees: &Subtrees,
    (nodes, moves): (&[usize], &[Vec<Move>]),
    session: &Session,
) -> Result<(), SplitError> {
    let k = file.piece;
    let path = piece_path(dir, k);
    let mut watch = Watch::new(plan, dir);
    let mut step = InStep::new(options.stale_after);
    let waited_before = file.waited_ms;
    let mut bound = file
        .iterations
        .last()
        .map_or(plan.initial_bound, |it| it.next_bound);
    loop {
        if bound == u32::MAX {
            file.state = PieceState::Exhausted;
            break;
        }
        if options.lockstep {
            step.wait(dir, k, plan.pieces, bound, |j| standing(plan, dir, j))?;
            file.waited_ms = waited_before + step.waited.as_secs_f64() * 1e3;
        }
        if watch.covers(bound)? {
            file.state = PieceState::Covered;
            break;
        }
        let roots = nodes.iter().zip(moves).map(|(&node, moves)| SubtreeRoot {
            at: Position::node(node),
            path_max: plan.frontier[node].path_max,
            moves,
        });
        let run = run_bound(subtrees, roots, bound, session, &mut watch)?;
        match record_bound(file, &path, bound, run)? {
            Some(next) => bound = next,
            None => break,
        }
    }
    write_json(&path, file)
}
