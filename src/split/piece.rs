//! One piece of a split search: IDA*'s iterations over the piece's frontier nodes, each bound
//! recorded in `DIR/piece-K.json` as it finishes.
//!
//! A piece follows its own bounds: after a bound it goes on with the smallest f over the
//! bound met in its subtrees (or the path maximum of a frontier node not yet searched). The
//! whole search's next bound may be smaller (it is the smallest over every piece and the tree
//! above the frontier), but then this piece's subtrees search exactly the same nodes at that
//! bound as at the one it finished; so a finished bound b with next bound n stands for every
//! bound in b..n (see `combine`).
//!
//! A piece that finds a solution writes it to its file and announces it with an empty marker
//! file `DIR/solved/BOUND-K`. The other pieces read every piece file before each bound and
//! watch the marker directory between frontier nodes (one `stat` per frontier node) and,
//! during a frontier node's search, from a thread of their own (`Stopper`, which stops the
//! search through its cancel flag). A known solution at bound L under frontier node i stops
//! a piece (`covered`):
//! - before a bound above L: it has finished every bound up to L (in the sense above);
//! - in bound L, before its first frontier node after i: the pieces finish every bound below
//!   L, so no solution is shorter, and single-process IDA* never searches past i in bound L.
//!   The piece's frontier nodes before i are searched to the end of L, since one of them may
//!   hold a solution that IDA* meets first; so the combined answer (the smallest bound, then
//!   the first frontier node) is single-process IDA*'s own solution, not only one as short;
//! - in a bound above L, at once.
//!
//! With the plan's `any_optimal`, a known solution at L stops a piece in bound L at once, or
//! before it starts L: every bound below L is finished by every piece, so the solution is
//! optimal, but the combined answer is the first solution found, not necessarily IDA*'s own.
//!
//! Before each bound a piece waits (see `step`) until the other live pieces have covered
//! every bound below it, so the pieces enter the last bound together; the waits change when
//! bounds start, nothing else.
//!
//! A piece in a bound below L finishes it as before. A limit (`--timeout`, `--max-nodes`)
//! stops a piece mid-bound; its file keeps every finished bound, and a rerun continues with
//! the unfinished one.

use std::path::Path;
use std::time::Instant;

use crate::board::moves_from_str;
use crate::search::Limits;

use super::bound::{Session, Stopper, announce};
use super::file::new_piece_file;
pub use super::file::{
    KnownSolution, PIECE_FORMAT, PartialIteration, PieceFile, PieceIteration, PieceState, Position,
    read_piece,
};
use super::plan::Plan;
use super::step::Heartbeat;
pub use super::step::PieceOptions;
use super::{SplitError, piece_path, write_json};

/// Runs (or continues) piece `k` of the plan in `dir` under `limits` (the timeout and node
/// limit count from this session's start), bounds in step with the other pieces; returns its
/// file as last written.
pub fn run_piece(
    plan: &Plan,
    dir: &Path,
    k: u32,
    limits: &Limits,
) -> Result<PieceFile, SplitError> {
    run_piece_with(plan, dir, k, limits, &PieceOptions::default())
}

/// [`run_piece`] with its options.
pub fn run_piece_with(
    plan: &Plan,
    dir: &Path,
    k: u32,
    limits: &Limits,
    options: &PieceOptions,
) -> Result<PieceFile, SplitError> {
    if k == 0 || k > plan.pieces {
        return Err(SplitError::Request(format!(
            "--piece {k}: the plan has pieces 1 to {}",
            plan.pieces
        )));
    }
    let mut file = read_piece(plan, dir, k)?.unwrap_or_else(|| new_piece_file(plan, k));
    if file.state.is_final() {
        return Ok(file);
    }
    let nodes: Vec<usize> = plan.nodes_of(k);
    let moves = nodes
        .iter()
        .map(|&i| moves_from_str(&plan.frontier[i].moves))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| SplitError::Request(format!("a frontier node's moves: {e}")))?;
    let setup = Instant::now();
    let subtrees = plan.subtrees()?;
    file.setup_ms = setup.elapsed().as_secs_f64() * 1e3;
    if !plan.is_queue() {
        file.nodes = nodes.len();
    }
    file.sessions += 1;
    file.state = PieceState::Running;
    file.partial = None;
    let path = piece_path(dir, k);
    write_json(&path, &file)?;
    let _heartbeat = Heartbeat::start(dir, k).map_err(|e| SplitError::File {
        path: super::step::heartbeat_path(dir, k),
        what: format!("cannot write the heartbeat: {e}"),
    })?;
    let stopper = Stopper::default();
    let (done, watching) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(|| stopper.watch(plan, dir, watching));
        let session = Session::new(limits, &stopper);
        let r = if plan.is_queue() {
            super::queue::run_queue(plan, dir, options, &mut file, &subtrees, &session)
        } else {
            super::slices::run_bounds(
                plan,
                dir,
                options,
                &mut file,
                &subtrees,
                (&nodes, &moves),
                &session,
            )
        };
        drop(done);
        r
    })?;
    if let Some(s) = file.solution() {
        announce(dir, s.bound, k)?;
    }
    Ok(file)
}
