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
//! Before each bound the piece reads the other pieces' files: if one has found a solution at
//! a bound below the one it would start, the piece has already finished that bound (in the
//! sense above) and stops; the solution with the smallest bound, first in frontier order,
//! is then IDA*'s own. A limit (`--timeout`, `--max-nodes`) stops a piece mid-bound; its
//! file keeps every finished bound, and a rerun continues with the unfinished one.

use std::path::Path;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::board::{moves_from_str, moves_to_string};
use crate::search::{Limits, Outcome, thread_cpu_time};

use super::plan::Plan;
use super::{SplitError, piece_path, read_json, write_json};

/// The format tag of piece files.
pub const PIECE_FORMAT: &str = "npuzzle-split-piece/1";

/// Where a piece stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PieceState {
    /// Running, or killed while running (a rerun continues).
    Running,
    /// Found a solution (the first in its frontier order at its bound).
    Solved,
    /// Stopped because another piece found a solution at a bound this one has finished.
    Covered,
    /// Its subtrees hold nothing over the last bound (only on a piece without nodes).
    Exhausted,
    /// A limit stopped it mid-bound (a rerun continues).
    Stopped,
}

impl PieceState {
    /// Whether a rerun has nothing left to do.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            PieceState::Solved | PieceState::Covered | PieceState::Exhausted
        )
    }
}

/// One bound a piece finished.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PieceIteration {
    /// The bound.
    pub bound: u32,
    /// Nodes generated below the piece's frontier nodes (they themselves are counted above).
    pub generated: u64,
    /// Nodes expanded, the piece's frontier nodes searched included.
    pub expanded: u64,
    /// The piece's next bound (`u32::MAX`: none).
    pub next_bound: u32,
    /// CPU time of the bound, milliseconds.
    pub cpu_ms: f64,
    /// Wall time of the bound, milliseconds.
    pub wall_ms: f64,
}

/// A bound a piece did not finish: the one it found a solution in, or the one a limit
/// stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartialIteration {
    /// The bound.
    pub bound: u32,
    /// Nodes generated up to the stop.
    pub generated: u64,
    /// Nodes expanded up to the stop.
    pub expanded: u64,
    /// The frontier node (index in the plan) the solution lies under, if found.
    pub node: Option<usize>,
    /// The solution from the start (U/D/L/R), if found.
    pub solution: Option<String>,
    /// The limit that stopped it, if any (`timeout`, `node-limit`, ...).
    pub stopped: Option<String>,
    /// CPU time, milliseconds.
    pub cpu_ms: f64,
    /// Wall time, milliseconds.
    pub wall_ms: f64,
}

/// A piece's file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PieceFile {
    /// [`PIECE_FORMAT`].
    pub format: String,
    /// The plan's checksum.
    pub plan: String,
    /// The piece (1-based).
    pub piece: u32,
    /// Its frontier nodes.
    pub nodes: usize,
    /// Where it stands.
    pub state: PieceState,
    /// Every bound it finished, ascending.
    pub iterations: Vec<PieceIteration>,
    /// The bound it did not finish: solved or stopped.
    pub partial: Option<PartialIteration>,
    /// How many times the piece was started.
    pub sessions: u32,
    /// Heuristic set-up time of the last session, milliseconds.
    pub setup_ms: f64,
}

impl PieceFile {
    /// The solution's bound, if the piece found one.
    pub fn solution_bound(&self) -> Option<u32> {
        self.partial
            .as_ref()
            .filter(|p| p.solution.is_some())
            .map(|p| p.bound)
    }

    /// The finished bound that stands for `bound` (see the module documentation).
    pub fn covering(&self, bound: u32) -> Option<&PieceIteration> {
        self.iterations
            .iter()
            .find(|it| it.bound <= bound && bound < it.next_bound)
    }

    /// CPU time of the piece's search over all sessions, milliseconds.
    pub fn cpu_ms(&self) -> f64 {
        self.iterations.iter().map(|i| i.cpu_ms).sum::<f64>()
            + self.partial.as_ref().map_or(0.0, |p| p.cpu_ms)
    }

    /// Wall time of the piece's search over all sessions, milliseconds.
    pub fn wall_ms(&self) -> f64 {
        self.iterations.iter().map(|i| i.wall_ms).sum::<f64>()
            + self.partial.as_ref().map_or(0.0, |p| p.wall_ms)
    }
}

/// Reads piece `k`'s file if there is one, checking it belongs to `plan`.
pub fn read_piece(plan: &Plan, dir: &Path, k: u32) -> Result<Option<PieceFile>, SplitError> {
    let path = piece_path(dir, k);
    if !path.exists() {
        return Ok(None);
    }
    let file: PieceFile = read_json(&path)?;
    if file.format != PIECE_FORMAT || file.plan != plan.checksum || file.piece != k {
        return Err(SplitError::File {
            path,
            what: format!(
                "belongs to another plan or piece (format {}, plan {}, piece {}; expected {PIECE_FORMAT}, plan {}, piece {k})",
                file.format, file.plan, file.piece, plan.checksum
            ),
        });
    }
    Ok(Some(file))
}

/// The smallest solution bound any piece's file reports.
fn solution_bound(plan: &Plan, dir: &Path) -> Result<Option<u32>, SplitError> {
    let mut best = None;
    for k in 1..=plan.pieces {
        if let Some(b) = read_piece(plan, dir, k)?.and_then(|f| f.solution_bound()) {
            best = Some(best.map_or(b, |x: u32| x.min(b)));
        }
    }
    Ok(best)
}

/// Runs (or continues) piece `k` of the plan in `dir` under `limits` (the timeout and node
/// limit count from this session's start); returns its file as last written.
pub fn run_piece(
    plan: &Plan,
    dir: &Path,
    k: u32,
    limits: &Limits,
) -> Result<PieceFile, SplitError> {
    if k == 0 || k > plan.pieces {
        return Err(SplitError::Request(format!(
            "--piece {k}: the plan has pieces 1 to {}",
            plan.pieces
        )));
    }
    let mut file = match read_piece(plan, dir, k)? {
        Some(f) if f.state.is_final() => return Ok(f),
        Some(f) => f,
        None => PieceFile {
            format: PIECE_FORMAT.into(),
            plan: plan.checksum.clone(),
            piece: k,
            nodes: 0,
            state: PieceState::Running,
            iterations: Vec::new(),
            partial: None,
            sessions: 0,
            setup_ms: 0.0,
        },
    };
    let nodes: Vec<usize> = plan.nodes_of(k);
    let moves = nodes
        .iter()
        .map(|&i| moves_from_str(&plan.frontier[i].moves))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| SplitError::Request(format!("a frontier node's moves: {e}")))?;
    let setup = Instant::now();
    let subtrees = plan.subtrees()?;
    file.setup_ms = setup.elapsed().as_secs_f64() * 1e3;
    file.nodes = nodes.len();
    file.sessions += 1;
    file.state = PieceState::Running;
    file.partial = None;
    let path = piece_path(dir, k);
    write_json(&path, &file)?;
    let session = Session::new(limits);
    let mut bound = file
        .iterations
        .last()
        .map_or(plan.initial_bound, |it| it.next_bound);
    loop {
        if bound == u32::MAX {
            file.state = PieceState::Exhausted;
            break;
        }
        if solution_bound(plan, dir)?.is_some_and(|s| s < bound) {
            file.state = PieceState::Covered;
            break;
        }
        let (wall, cpu) = (Instant::now(), thread_cpu_time());
        let (mut generated, mut expanded, mut next) = (0u64, 0u64, u32::MAX);
        let mut end: Option<(Option<usize>, Option<String>, Option<Outcome>)> = None;
        for (j, m) in moves.iter().enumerate() {
            let limits = match session.limits() {
                Ok(l) => l,
                Err(s) => {
                    end = Some((None, None, Some(s)));
                    break;
                }
            };
            let c = subtrees.iterate(m, bound, &limits);
            session.add(c.generated);
            generated += c.generated;
            expanded += c.expanded;
            next = next.min(c.next_bound);
            if let Some(s) = c.solution {
                end = Some((Some(nodes[j]), Some(moves_to_string(&s)), None));
                break;
            }
            if let Some(s) = c.stopped {
                end = Some((None, None, Some(s)));
                break;
            }
        }
        let cpu_ms = ms(cpu.zip(thread_cpu_time()).map(|(a, b)| b - a));
        let wall_ms = wall.elapsed().as_secs_f64() * 1e3;
        if let Some((node, solution, stopped)) = end {
            file.state = if solution.is_some() {
                PieceState::Solved
            } else {
                PieceState::Stopped
            };
            file.partial = Some(PartialIteration {
                bound,
                generated,
                expanded,
                node,
                solution,
                stopped: stopped.map(|s| s.name().to_string()),
                cpu_ms,
                wall_ms,
            });
            break;
        }
        file.iterations.push(PieceIteration {
            bound,
            generated,
            expanded,
            next_bound: next,
            cpu_ms,
            wall_ms,
        });
        write_json(&path, &file)?;
        bound = next;
    }
    write_json(&path, &file)?;
    Ok(file)
}

/// A piece session's limits: the timeout from its start, the node limit over its nodes.
struct Session {
    limits: Limits,
    deadline: Option<Instant>,
    used: std::cell::Cell<u64>,
}

impl Session {
    fn new(limits: &Limits) -> Session {
        Session {
            limits: limits.clone(),
            deadline: limits.timeout.map(|t| Instant::now() + t),
            used: std::cell::Cell::new(0),
        }
    }

    /// The limits of the next frontier node's search, or the limit already reached.
    fn limits(&self) -> Result<Limits, Outcome> {
        let timeout = match self.deadline {
            Some(d) if Instant::now() >= d => return Err(Outcome::Timeout),
            Some(d) => Some(d - Instant::now()),
            None => None,
        };
        let max_nodes = match self.limits.max_nodes {
            Some(n) if self.used.get() >= n => return Err(Outcome::NodeLimit),
            Some(n) => Some(n - self.used.get()),
            None => None,
        };
        Ok(Limits {
            timeout,
            max_nodes,
            ..self.limits.clone()
        })
    }

    fn add(&self, generated: u64) {
        self.used.set(self.used.get() + generated);
    }
}

fn ms(d: Option<Duration>) -> f64 {
    d.map_or(0.0, |d| d.as_secs_f64() * 1e3)
}
