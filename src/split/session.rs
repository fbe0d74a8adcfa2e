//! What `bench split plan` and `bench split piece` do beyond their arguments: a plan made from
//! one instance of an instance file into a fresh split directory, the pieces a Slurm array
//! task stands for, and several pieces run at once as threads of one process (sharing one
//! copy of the heuristic's tables).

use std::path::{Path, PathBuf};

use super::SplitError;
use super::piece::{PieceFile, PieceOptions, run_piece_with};
use super::plan::{Plan, PlanRequest, make_plan};
use crate::board::Goal;
use crate::heuristic::HeuristicKind;
use crate::instances::{Instance, read_instance_file};
use crate::search::{Algorithm, Limits};

/// The environment variable a Slurm array task's index comes in.
pub const SLURM_TASK_VARIABLE: &str = "SLURM_ARRAY_TASK_ID";

/// Stack of a piece's thread (IDA* recurses once per move of the path).
const PIECE_STACK: usize = 8 << 20;

/// A plan of one instance of a file, as `bench split plan` takes it.
#[derive(Debug, Clone)]
pub struct PlanFromFile {
    /// The instance file.
    pub file: PathBuf,
    /// The instance's id in it.
    pub id: String,
    /// The goal layout, where the file does not say it.
    pub goal: Option<Goal>,
    /// The search (an IDA*).
    pub algorithm: Algorithm,
    /// The heuristic.
    pub heuristic: HeuristicKind,
    /// How many pieces.
    pub pieces: u32,
    /// The frontier's least size.
    pub frontier: usize,
    /// Nodes the balancing probe may generate.
    pub probe_nodes: u64,
    /// Any optimal solution will do.
    pub any_optimal: bool,
    /// Pieces share a queue of units instead of fixed slices.
    pub queue: bool,
}

/// Reads the instance, makes its plan and writes it to `dir` (created if need be; a directory
/// that holds a plan already is refused, so no run's pieces are ever mixed with another's).
pub fn plan_into(request: &PlanFromFile, dir: &Path) -> Result<Plan, SplitError> {
    let set = read_instance_file(&request.file, request.goal)?;
    let Some(instance) = set.instances.iter().find(|i| i.id == request.id) else {
        return Err(SplitError::Request(format!(
            "--id {}: no instance with that id in {} (ids: {})",
            request.id,
            request.file.display(),
            some_ids(&set.instances)
        )));
    };
    std::fs::create_dir_all(dir).map_err(|e| SplitError::File {
        path: dir.to_path_buf(),
        what: format!("cannot create the directory (--out): {e}"),
    })?;
    if super::plan_path(dir).exists() {
        return Err(SplitError::Request(format!(
            "--out {}: holds a plan already (run its pieces, or choose a new directory)",
            dir.display()
        )));
    }
    let plan = make_plan(&PlanRequest {
        instance_file: request.file.display().to_string(),
        instance_id: instance.id.clone(),
        scramble_moves: instance.scramble_moves,
        board: instance.board.clone(),
        goal: set.shape.goal,
        algorithm: request.algorithm,
        heuristic: request.heuristic.clone(),
        pieces: request.pieces,
        frontier: request.frontier,
        probe_nodes: request.probe_nodes,
        any_optimal: request.any_optimal,
        queue: request.queue,
    })?;
    plan.write(dir)?;
    Ok(plan)
}

/// The first few ids of a file, for a message.
fn some_ids(instances: &[Instance]) -> String {
    let mut s: Vec<&str> = instances.iter().take(5).map(|i| i.id.as_str()).collect();
    if instances.len() > 5 {
        s.push("...");
    }
    s.join(", ")
}

/// The pieces `--piece` names (`K`, `A-B` and comma-separated lists of them; pieces are
/// numbered from 1), ascending, without repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceList(pub Vec<u32>);

impl std::str::FromStr for PieceList {
    type Err = String;

    fn from_str(s: &str) -> Result<PieceList, String> {
        let number = |t: &str| -> Result<u32, String> {
            match t.trim().parse::<u32>() {
                Ok(k) if k >= 1 => Ok(k),
                _ => Err(format!("\"{t}\": not a piece number (1, 2, ...)")),
            }
        };
        let mut pieces = Vec::new();
        for part in s.split(',') {
            match part.split_once('-') {
                Some((a, b)) => {
                    let (a, b) = (number(a)?, number(b)?);
                    if a > b {
                        return Err(format!("\"{part}\": an empty range"));
                    }
                    if b - a >= 100_000 {
                        return Err(format!("\"{part}\": more than 100000 pieces"));
                    }
                    pieces.extend(a..=b);
                }
                None => pieces.push(number(part)?),
            }
        }
        pieces.sort_unstable();
        pieces.dedup();
        Ok(PieceList(pieces))
    }
}

/// The pieces to run: those named (`--piece`), else the one of this Slurm array task
/// (`task`: the value of [`SLURM_TASK_VARIABLE`], if set).
pub fn pieces_to_run(
    named: Option<Vec<u32>>,
    task: Option<String>,
) -> Result<Vec<u32>, SplitError> {
    match (named, task) {
        (Some(list), _) => Ok(list),
        (None, Some(v)) => match v.trim().parse::<u32>() {
            Ok(k) => Ok(vec![k]),
            Err(_) => Err(SplitError::Request(format!(
                "{SLURM_TASK_VARIABLE}={v}: not a piece number"
            ))),
        },
        (None, None) => Err(SplitError::Request(
            "give the piece with --piece K (or run it as a Slurm array task)".into(),
        )),
    }
}

/// Runs `pieces` of `plan` in `dir`: one in this thread, several at once as one thread each
/// (as many processes would run them; the heuristic's tables are built or loaded once and
/// shared). `done` hears of each piece that ended its session. Every piece runs to the end of
/// its session whatever the others do; the error names how many failed.
pub fn run_pieces(
    plan: &Plan,
    dir: &Path,
    pieces: &[u32],
    limits: &Limits,
    options: &PieceOptions,
    done: &(dyn Fn(u32, &PieceFile) + Sync),
) -> Result<(), SplitError> {
    if let Some(&k) = pieces.iter().find(|&&k| k == 0 || k > plan.pieces) {
        return Err(SplitError::Request(format!(
            "--piece {k}: the plan has pieces 1 to {}",
            plan.pieces
        )));
    }
    let one = |k: u32| -> Result<(), SplitError> {
        let file =
            run_piece_with(plan, dir, k, limits, options).map_err(|e| SplitError::Piece {
                piece: k,
                source: Box::new(e),
            })?;
        done(k, &file);
        Ok(())
    };
    if let [k] = pieces[..] {
        return one(k);
    }
    let failed = std::thread::scope(|s| {
        let handles: Vec<_> = pieces
            .iter()
            .map(|&k| {
                std::thread::Builder::new()
                    .name(format!("piece-{k}"))
                    .stack_size(PIECE_STACK)
                    .spawn_scoped(s, move || one(k))
            })
            .collect::<Result<_, _>>()?;
        let mut failed = 0;
        for h in handles {
            match h.join() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => {
                    crate::infra::output::note(format_args!("error: {e}\n"));
                    failed += 1;
                }
                Err(_) => {
                    crate::infra::output::note(format_args!("error: a piece's thread panicked\n"));
                    failed += 1;
                }
            }
        }
        std::io::Result::Ok(failed)
    })
    .map_err(SplitError::Threads)?;
    if failed > 0 {
        return Err(SplitError::PiecesFailed {
            failed,
            of: pieces.len(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_lists_are_numbers_ranges_and_their_union() {
        let parse = |s: &str| s.parse::<PieceList>();
        assert_eq!(parse("3"), Ok(PieceList(vec![3])));
        assert_eq!(parse("1-4"), Ok(PieceList(vec![1, 2, 3, 4])));
        assert_eq!(parse("7,1-3,2"), Ok(PieceList(vec![1, 2, 3, 7])));
        for bad in ["0", "", "2-1", "a", "1-", "1,,2", "-3"] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_pieces_come_from_the_flag_else_the_slurm_task() {
        assert_eq!(
            pieces_to_run(Some(vec![2, 3]), Some("7".into())).unwrap(),
            [2, 3]
        );
        assert_eq!(pieces_to_run(None, Some("7".into())).unwrap(), [7]);
        let e = pieces_to_run(None, Some("x".into()))
            .unwrap_err()
            .to_string();
        assert!(e.contains("SLURM_ARRAY_TASK_ID=x"), "{e}");
        let e = pieces_to_run(None, None).unwrap_err().to_string();
        assert!(e.contains("--piece K"), "{e}");
    }
}
