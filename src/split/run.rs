//! Running pieces in this process: which pieces a run stands for (`--piece`, else the Slurm
//! array task's), and several pieces at once as threads of one process, so that they share
//! one copy of the heuristic's tables (pattern databases) where processes would each load
//! their own.

use std::path::Path;

use super::SplitError;
use super::file::PieceFile;
use super::piece::run_piece_with;
use super::plan::Plan;
use super::step::PieceOptions;
use crate::search::Limits;

/// The environment variable a Slurm array task's index comes in.
pub const SLURM_TASK_VARIABLE: &str = "SLURM_ARRAY_TASK_ID";

/// Stack of a piece's thread (IDA* recurses once per move of the path).
const PIECE_STACK: usize = 8 << 20;

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
