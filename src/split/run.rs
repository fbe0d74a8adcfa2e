//! Running pieces in this process: which piece a Slurm array task is, and several pieces at
//! once as threads of one process, so that they share one copy of the heuristic's tables
//! (pattern databases) where processes would each load their own.

use std::path::Path;

use crate::search::Limits;

use super::SplitError;
use super::file::PieceFile;
use super::piece::run_piece_with;
use super::plan::Plan;
use super::step::PieceOptions;

/// Stack of a piece's thread (IDA* recurses once per move of the path).
const PIECE_STACK: usize = 8 << 20;

/// The pieces a `--piece` list names, ascending, without repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceList(pub Vec<u32>);

impl std::str::FromStr for PieceList {
    type Err = String;

    /// Parses `K`, `A-B` and comma-separated lists of them (pieces are numbered from 1).
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

/// The piece of this Slurm array task (`SLURM_ARRAY_TASK_ID`), for a piece run without
/// `--piece`.
pub fn array_task_piece() -> Result<u32, SplitError> {
    match std::env::var("SLURM_ARRAY_TASK_ID") {
        Ok(v) => v.parse().map_err(|_| {
            SplitError::Request(format!("SLURM_ARRAY_TASK_ID={v}: not a piece number"))
        }),
        Err(_) => Err(SplitError::Request(
            "give the piece with --piece K (or run it as a Slurm array task)".into(),
        )),
    }
}

/// Runs `pieces` of the plan in `dir` at once, one thread each (as many processes would
/// run them; the heuristic's tables are built or loaded once and shared), and hands each
/// piece's end to `ended` as it comes; returns how many pieces failed. Each piece keeps its
/// own file, CPU clock and limits. Fails only when the threads cannot be started.
pub fn run_pieces<F>(
    plan: &Plan,
    dir: &Path,
    pieces: &[u32],
    (limits, options): (&Limits, &PieceOptions),
    ended: F,
) -> Result<usize, SplitError>
where
    F: Fn(u32, Result<PieceFile, SplitError>) + Sync,
{
    let failed = std::sync::atomic::AtomicUsize::new(0);
    let ended = &|k: u32, r: Result<PieceFile, SplitError>| {
        if r.is_err() {
            failed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        ended(k, r);
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = pieces
            .iter()
            .map(|&k| {
                std::thread::Builder::new()
                    .name(format!("piece-{k}"))
                    .stack_size(PIECE_STACK)
                    .spawn_scoped(s, move || {
                        ended(k, run_piece_with(plan, dir, k, limits, options));
                    })
                    .map(|h| (k, h))
            })
            .collect::<Result<_, _>>()
            .map_err(|e| SplitError::Request(format!("cannot start the pieces' threads: {e}")))?;
        for (k, h) in handles {
            if h.join().is_err() {
                ended(
                    k,
                    Err(SplitError::Request(format!(
                        "piece {k}: its thread panicked"
                    ))),
                );
            }
        }
        Ok::<(), SplitError>(())
    })?;
    Ok(failed.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_pieces(s: &str) -> Result<PieceList, String> {
        s.parse()
    }

    #[test]
    fn piece_lists_are_numbers_ranges_and_their_union() {
        assert_eq!(parse_pieces("3"), Ok(PieceList(vec![3])));
        assert_eq!(parse_pieces("1-4"), Ok(PieceList(vec![1, 2, 3, 4])));
        assert_eq!(parse_pieces("7,1-3,2"), Ok(PieceList(vec![1, 2, 3, 7])));
        for bad in ["0", "", "2-1", "a", "1-", "1,,2", "-3"] {
            assert!(parse_pieces(bad).is_err(), "{bad:?}");
        }
    }
}
