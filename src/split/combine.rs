//! The pieces' files combined into one answer: the counts per bound, the shortest solution,
//! one results row.
//!
//! The bounds of the whole search are walked from the first: at bound B, a piece that finished
//! some bound b <= B with next bound n > B searched exactly the nodes it would search at B (see
//! `piece`), so its counts at b are its counts at B; the tree above the frontier counts what
//! its nodes with path maximum <= B count. Their sum is the single-process IDA* iteration with
//! bound B, node for node, when every piece finished it. The next bound is the smallest of the
//! pieces' next bounds and the tree above's. The walk ends at the first bound holding a
//! solution (every smaller bound was finished by every piece: the solution is optimal; among
//! the solutions at that bound the first in frontier order, the one IDA* finds), or at the
//! first bound some piece has not finished (a limit stopped it, or it has not run): then the
//! search is not over, and every solution has at least that many moves.
//!
//! The last iteration is not a whole one: IDA* stops at its first solution, and so do the
//! pieces (a piece searches its frontier nodes before the solution's to the end of the bound,
//! and stops at its first one after it; see `piece`). How far past the solution's node a
//! piece got depends on when it saw the solution, so the last bound's counts are at least
//! single-process IDA*'s and usually a little more. `iterations.csv` shows it with fewer
//! pieces completed than pieces.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::board::{Move, moves_from_str};
use crate::results::{MeasuredBy, Outcome, Row, RowWriter};

use super::SplitError;
use super::file::{PieceFile, PieceState, Position, read_piece};
use super::plan::Plan;
use super::queue::{UnitRecord, read_records};

/// One bound of the whole search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CombinedIteration {
    /// The bound.
    pub bound: u32,
    /// Nodes generated in it, the root included (as `SolveReport::per_iteration` counts).
    pub generated: u64,
    /// Nodes expanded in it.
    pub expanded: u64,
    /// Pieces that finished it.
    pub pieces_completed: u32,
    /// Pieces.
    pub pieces: u32,
}

impl CombinedIteration {
    /// Whether every piece finished it (its counts are then IDA*'s).
    pub fn complete(&self) -> bool {
        self.pieces_completed == self.pieces
    }
}

/// One piece as the combination saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct PieceSummary {
    /// The piece (1-based).
    pub piece: u32,
    /// Its state (`None`: no file, it never ran).
    pub state: Option<PieceState>,
    /// Its frontier nodes.
    pub nodes: usize,
    /// CPU time of its search over all sessions, milliseconds.
    pub cpu_ms: f64,
    /// Wall time of its search over all sessions, milliseconds.
    pub wall_ms: f64,
    /// Times it was started.
    pub sessions: u32,
    /// Time it waited for other pieces before its bounds, over all sessions, milliseconds.
    pub waited_ms: f64,
}

/// The combined answer.
#[derive(Debug, Clone)]
pub struct Combined {
    /// Every bound walked, the last one possibly unfinished.
    pub iterations: Vec<CombinedIteration>,
    /// How the search stands: solved, stopped by a limit, or `None` (pieces missing or still
    /// running).
    pub status: Option<Outcome>,
    /// The solution, replayed on the start board.
    pub moves: Option<Vec<Move>>,
    /// The pieces.
    pub pieces: Vec<PieceSummary>,
    /// The results row.
    pub row: Row,
}

impl Combined {
    /// One line on the answer, for the person who combined: the result file, the status,
    /// the moves and the counts.
    pub fn summary(&self, dir: &Path) -> String {
        let r = &self.row;
        format!(
            "{}: {} moves {}, {} generated, {} expanded over {} iterations; {}",
            dir.join("result.csv").display(),
            r.status,
            r.moves.map_or("-".into(), |m| m.to_string()),
            r.nodes_generated.unwrap_or(0),
            r.nodes_expanded.unwrap_or(0),
            r.iterations.unwrap_or(0),
            r.message.as_deref().unwrap_or("")
        )
    }
}

/// What the pieces counted at one bound.
struct AtBound {
    generated: u64,
    expanded: u64,
    completed: u32,
    next: u32,
    /// (position, solution) of the pieces that found one at this bound.
    solutions: Vec<(Position, String)>,
    /// Pieces that stopped in this bound because of another piece's solution.
    cut: u32,
    stopped: Option<Outcome>,
}

impl AtBound {
    /// A bound nothing has been counted in yet.
    fn nothing() -> AtBound {
        AtBound {
            generated: 0,
            expanded: 0,
            completed: 0,
            next: u32::MAX,
            solutions: Vec::new(),
            cut: 0,
            stopped: None,
        }
    }
}

fn at_bound(files: &[Option<PieceFile>], bound: u32) -> AtBound {
    let mut a = AtBound::nothing();
    for f in files.iter().flatten() {
        if let Some(it) = f.covering(bound) {
            a.generated += it.generated;
            a.expanded += it.expanded;
            a.completed += 1;
            a.next = a.next.min(it.next_bound);
        } else if let Some(p) = f.partial.as_ref().filter(|p| p.bound == bound) {
            a.generated += p.generated;
            a.expanded += p.expanded;
            if let (Some(node), Some(s)) = (p.node, &p.solution) {
                a.solutions.push((Position { node, sub: p.sub }, s.clone()));
            }
            a.stopped = a.stopped.or(p.stopped.filter(|s| s.is_limit()));
            a.cut += u32::from(p.cut.is_some());
        }
    }
    a
}

/// [`at_bound`] for a queue plan: the counts are the units' records (a unit a limit stopped
/// counts once it is searched again); the bound is complete when every unit's record is, and
/// then every piece is said to have finished it (they share it; none has a slice of its own).
fn at_bound_queue(
    plan: &Plan,
    dir: &Path,
    files: &[Option<PieceFile>],
    bound: u32,
) -> Result<AtBound, SplitError> {
    let Some(records) = read_records(dir, bound)? else {
        // No piece has reached the bound (so none stopped in it either).
        return Ok(AtBound::nothing());
    };
    let mut a = AtBound::nothing();
    for r in records.iter().flatten() {
        a.generated += r.generated;
        a.expanded += r.expanded;
        a.next = a.next.min(r.next_bound);
        if let (Some(node), Some(s)) = (r.node, &r.solution) {
            a.solutions.push((Position { node, sub: r.sub }, s.clone()));
        }
        a.cut += u32::from(r.cut.is_some());
    }
    if records
        .iter()
        .all(|r| r.as_ref().is_some_and(UnitRecord::complete))
    {
        a.completed = plan.pieces;
    }
    for p in files.iter().flatten().filter_map(|f| f.partial.as_ref()) {
        if p.bound == bound {
            a.stopped = a.stopped.or(p.stopped.filter(|s| s.is_limit()));
        }
    }
    Ok(a)
}

/// Combines the pieces of the plan in `dir`.
pub fn combine(dir: &Path) -> Result<Combined, SplitError> {
    let plan = Plan::read(dir)?;
    let files = (1..=plan.pieces)
        .map(|k| read_piece(&plan, dir, k))
        .collect::<Result<Vec<_>, _>>()?;
    let mut iterations = Vec::new();
    let mut bound = plan.initial_bound;
    let mut solution = None;
    let mut last = (0, None);
    let status = loop {
        let a = if plan.is_queue() {
            at_bound_queue(&plan, dir, &files, bound)?
        } else {
            at_bound(&files, bound)
        };
        let (top_expanded, top_generated) = plan.top_counts(bound);
        iterations.push(CombinedIteration {
            bound,
            generated: top_generated + a.generated,
            expanded: top_expanded + a.expanded,
            pieces_completed: a.completed,
            pieces: plan.pieces,
        });
        if let Some(first) = a.solutions.iter().min_by_key(|(at, _)| *at) {
            solution = Some(first.1.clone());
            last = (a.cut, Some(first.0.node));
            break Some(Outcome::Solved);
        }
        if a.completed < plan.pieces {
            break a.stopped;
        }
        bound = a.next.min(plan.top_next_bound(bound));
        if bound == u32::MAX {
            return Err(SplitError::Request(
                "the search ran out of nodes without reaching the goal (an internal error: the board is solvable)".into(),
            ));
        }
    };
    let board = plan.board()?;
    let moves = match solution {
        Some(s) => {
            let moves = moves_from_str(&s)
                .map_err(|e| SplitError::Request(format!("a piece's solution {s}: {e}")))?;
            if !board.replay_reaches_goal(&moves, plan.shape.goal) {
                return Err(SplitError::Request(format!(
                    "internal error: the pieces' solution {s} does not reach the goal"
                )));
            }
            Some(moves)
        }
        None => None,
    };
    let pieces: Vec<PieceSummary> = files
        .iter()
        .enumerate()
        .map(|(i, f)| PieceSummary {
            piece: i as u32 + 1,
            state: f.as_ref().map(|f| f.state),
            nodes: f
                .as_ref()
                .map_or(plan.nodes_of(i as u32 + 1).len(), |f| f.nodes),
            cpu_ms: f.as_ref().map_or(0.0, PieceFile::cpu_ms),
            wall_ms: f.as_ref().map_or(0.0, PieceFile::wall_ms),
            sessions: f.as_ref().map_or(0, |f| f.sessions),
            waited_ms: f.as_ref().map_or(0.0, |f| f.waited_ms),
        })
        .collect();
    let setup_ms = files
        .iter()
        .flatten()
        .map(|f| f.setup_ms)
        .fold(0.0, f64::max);
    let row = make_row(&plan, &iterations, status, &moves, &pieces, setup_ms, last)?;
    Ok(Combined {
        iterations,
        status,
        moves,
        pieces,
        row,
    })
}

fn make_row(
    plan: &Plan,
    iterations: &[CombinedIteration],
    status: Option<Outcome>,
    moves: &Option<Vec<Move>>,
    pieces: &[PieceSummary],
    setup_ms: f64,
    (cut, node): (u32, Option<usize>),
) -> Result<Row, SplitError> {
    let n = iterations.len() as u64;
    let generated = iterations.iter().map(|i| i.generated).sum::<u64>() - (n - 1);
    let expanded = iterations.iter().map(|i| i.expanded).sum::<u64>();
    let last = iterations.last().expect("at least one bound");
    let cpu: Vec<f64> = pieces.iter().map(|p| p.cpu_ms).collect();
    let total_cpu: f64 = cpu.iter().sum();
    let mean = total_cpu / cpu.len() as f64;
    let slowest = cpu.iter().copied().fold(0.0, f64::max);
    let wall = pieces.iter().map(|p| p.wall_ms).fold(0.0, f64::max);
    let mut message = format!(
        "split: {} pieces over {} frontier nodes at depth {}; piece CPU s min {:.3} mean {:.3} max {:.3}, imbalance {:.2} (slowest/mean); plan {:.3} s CPU",
        plan.pieces,
        plan.frontier.len(),
        plan.depth,
        cpu.iter().copied().fold(f64::INFINITY, f64::min) / 1e3,
        mean / 1e3,
        slowest / 1e3,
        if mean > 0.0 { slowest / mean } else { 1.0 },
        plan.plan_cpu_us as f64 / 1e6,
    );
    let waited = pieces.iter().map(|p| p.waited_ms).fold(0.0, f64::max);
    if waited > 0.0 {
        let _ = write!(
            message,
            "; waits for other pieces before bounds: mean {:.3} s, max {:.3} s",
            pieces.iter().map(|p| p.waited_ms).sum::<f64>() / pieces.len() as f64 / 1e3,
            waited / 1e3
        );
    }
    match node {
        Some(node) if !last.complete() && plan.any_optimal => {
            let _ = write!(
                message,
                "; bound {} is the solution's, not a whole iteration: with --any-optimal every piece stopped at the first \
                 solution found (frontier node {node}), {} of {} pieces finished the bound",
                last.bound, last.pieces_completed, last.pieces
            );
        }
        Some(node) if !last.complete() => {
            let _ = write!(
                message,
                "; bound {} is the solution's, not a whole iteration (single-process IDA* stops at its first solution): \
                 {} of {} pieces finished it, {cut} stopped at the solution's frontier node {node}",
                last.bound, last.pieces_completed, last.pieces
            );
        }
        _ if !last.complete() => {
            let _ = write!(
                message,
                "; bound {} finished by {} of {} pieces",
                last.bound, last.pieces_completed, last.pieces
            );
        }
        _ => {}
    }
    let unfinished: Vec<String> = pieces
        .iter()
        .filter(|p| p.state.is_none_or(|s| !s.is_final()))
        .map(|p| p.piece.to_string())
        .collect();
    if status != Some(Outcome::Solved) && !unfinished.is_empty() {
        let _ = write!(message, "; unfinished pieces: {}", unfinished.join(" "));
    }
    let outcome = match status {
        Some(s) if s.is_recorded() => s,
        _ => Outcome::Error,
    };
    let initial_h = plan.initial_bound;
    Ok(Row {
        run_id: format!("split-{}", &plan.checksum[..12]),
        instance_file: plan.instance_file.clone(),
        instance_id: plan.instance_id.clone(),
        rows: plan.shape.rows as u32,
        cols: plan.shape.cols as u32,
        goal: plan.shape.goal,
        scramble_moves: plan.scramble_moves,
        algorithm: plan.pair.algorithm.clone(),
        heuristic: plan.pair.heuristic.clone(),
        repetition: 1,
        status: outcome,
        moves: moves.as_ref().map(|m| m.len() as u32),
        lower_bound: (status != Some(Outcome::Solved)).then_some(last.bound),
        optimal: Some(true),
        known_optimal: None,
        suboptimal: None,
        nodes_expanded: Some(expanded),
        nodes_generated: Some(generated),
        iterations: Some(n as u32),
        peak_stored_nodes: None,
        peak_heap_bytes: None,
        peak_rss_bytes: None,
        wall_ms: plan.plan_wall_us as f64 / 1e3 + setup_ms + wall,
        search_ms: Some(wall),
        cpu_ms: Some(plan.plan_cpu_us as f64 / 1e3 + total_cpu),
        user_ms: None,
        sys_ms: None,
        setup_ms: Some(setup_ms),
        initial_h: Some(initial_h),
        measured_by: Some(MeasuredBy::InProcess),
        message: Some(message),
        solution: moves.as_ref().map(|m| crate::board::moves_to_string(m)),
    })
}

/// Writes `DIR/result.csv` (one results row), `DIR/iterations.csv` and `DIR/pieces.csv`, each
/// replaced by rename.
pub fn write_combined(dir: &Path, c: &Combined) -> Result<(), SplitError> {
    let io = |path: &Path, e: anyhow::Error| SplitError::File {
        path: path.to_path_buf(),
        what: format!("cannot write: {e:#}"),
    };
    let result = dir.join("result.csv");
    crate::infra::output::write_replacing(&result, |w| {
        RowWriter::new(w)?.write(&c.row)?;
        Ok(())
    })
    .map_err(|e| io(&result, e))?;
    let iterations = dir.join("iterations.csv");
    crate::infra::output::write_replacing(&iterations, |w| {
        writeln!(w, "bound,generated,expanded,pieces_completed,pieces")?;
        for i in &c.iterations {
            writeln!(
                w,
                "{},{},{},{},{}",
                i.bound, i.generated, i.expanded, i.pieces_completed, i.pieces
            )?;
        }
        Ok(())
    })
    .map_err(|e| io(&iterations, e))?;
    let pieces = dir.join("pieces.csv");
    crate::infra::output::write_replacing(&pieces, |w| {
        writeln!(w, "piece,state,nodes,cpu_ms,wall_ms,sessions,waited_ms")?;
        for p in &c.pieces {
            let state = p.state.map_or("not-run".to_string(), |s| {
                serde_json::to_value(s)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            });
            writeln!(
                w,
                "{},{},{},{:.3},{:.3},{},{:.3}",
                p.piece, state, p.nodes, p.cpu_ms, p.wall_ms, p.sessions, p.waited_ms
            )?;
        }
        Ok(())
    })
    .map_err(|e| io(&pieces, e))
}

/// Writes the sidecar of `DIR/result.csv` (`result.csv.meta.json`, atomically), so that
/// `bench merge` and `bench report` take the split's row as any run's: one job of one
/// algorithm and heuristic on one instance, its session `complete` when the search ended
/// (solved or stopped by a limit) and `interrupted` while pieces are missing or running.
/// `command_line` is the combine's; the instance file's checksum is taken when the file is
/// where the plan names it, else left empty.
pub fn write_result_sidecar(
    dir: &Path,
    c: &Combined,
    command_line: Vec<String>,
) -> Result<PathBuf, SplitError> {
    use crate::infra::provenance::{Build, Host, now_rfc3339, sha256_file, sidecar_path};
    use crate::results::meta::{InstanceFileMeta, Meta, Session, SessionStatus};
    let r = &c.row;
    let now = now_rfc3339();
    let status = match c.status {
        Some(_) => SessionStatus::Complete,
        None => SessionStatus::Interrupted,
    };
    let meta = Meta {
        schema_version: crate::results::SCHEMA_VERSION,
        run_id: r.run_id.clone(),
        program: Build::current(),
        command_line: command_line.clone(),
        threads: 1,
        limits: crate::search::Limits::default(),
        job_order_seed: 0,
        shard: None,
        algorithms: vec![r.algorithm.clone()],
        heuristics: vec![r.heuristic.clone()],
        repeat: 1,
        solvers: Vec::new(),
        isolate: false,
        cpu_limit_ms: None,
        warmup: 0,
        jobs_planned: 1,
        host: Host::current(),
        instance_files: vec![InstanceFileMeta {
            path: r.instance_file.clone(),
            sha256: sha256_file(Path::new(&r.instance_file)).unwrap_or_default(),
            instances: 1,
            shape: r.shape(),
            skipped_unsolvable: Vec::new(),
        }],
        start_time: now.clone(),
        end_time: Some(now.clone()),
        sessions: vec![Session {
            command_line,
            program: Build::current(),
            threads: 1,
            start_time: now.clone(),
            end_time: Some(now),
            jobs_to_run: 1,
            rows_written: 1,
            status,
            pid: Some(std::process::id()),
            hostname: Host::current().hostname,
        }],
    };
    let path = sidecar_path(&dir.join("result.csv"));
    crate::infra::output::write_sidecar(&path, &meta).map_err(|e| SplitError::File {
        path: path.clone(),
        what: format!("cannot write: {e}"),
    })?;
    Ok(path)
}
