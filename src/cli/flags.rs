//! The flags that mean the same in every subcommand: `--timeout DURATION`, `--max-memory SIZE`
//! (parsed by [`crate::infra::limits`], the one parser of durations and sizes), `--max-nodes N`,
//! the board size `--size RxC` / `--n N` / `--rows R --cols C`, and lists of heuristics whose
//! pattern-database tile groups contain commas (`--heuristics manhattan,pdb:1,2,3/4,5,6`).

use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;

use crate::heuristic::HeuristicKind;
use crate::infra::limits;

/// A duration limit, `none` for unlimited.
#[derive(Debug, Clone, Copy)]
pub struct DurationLimit(pub Option<Duration>);

/// Parses `--timeout`: `60s`, `500ms`, `2m`, a plain number of seconds, or `none`.
pub fn parse_duration_limit(s: &str) -> Result<DurationLimit, String> {
    limits::parse_duration(s)
        .map(DurationLimit)
        .map_err(|e| e.to_string())
}

/// A size limit, `none` for unlimited.
#[derive(Debug, Clone, Copy)]
pub struct SizeLimit(pub Option<u64>);

/// Parses `--max-memory`: `64MiB`, `2GiB`, `500MB`, a plain number of bytes, or `none`.
pub fn parse_size_limit(s: &str) -> Result<SizeLimit, String> {
    limits::parse_optional_size(s)
        .map(SizeLimit)
        .map_err(|e| e.to_string())
}

/// The board size, spelled `--size RxC`, `--n N` (square) or `--rows R --cols C`.
#[derive(Debug, Clone, Args)]
pub struct BoardSize {
    /// Board size ROWSxCOLS, e.g. 4x4 or 3x5 (or --n N, or --rows R --cols C).
    #[arg(long, value_name = "RxC", conflicts_with_all = ["n", "rows", "cols"])]
    pub size: Option<String>,
    /// A square board of N x N (same as --size NxN).
    #[arg(long, value_name = "N", conflicts_with_all = ["rows", "cols"])]
    pub n: Option<usize>,
    /// Board rows (with --cols).
    #[arg(long, value_name = "R", requires = "cols")]
    pub rows: Option<usize>,
    /// Board columns (with --rows).
    #[arg(long, value_name = "C", requires = "rows")]
    pub cols: Option<usize>,
}

/// A list of heuristics as `--heuristics` takes it.
#[derive(Debug, Clone, PartialEq)]
pub struct HeuristicList(pub Vec<HeuristicKind>);

/// Parses a list of heuristics separated by commas (or `;`). A comma inside a pattern-database
/// spec stays in it: a piece that starts with a digit continues the previous one, so
/// `manhattan,pdb:1,2,3/4,5,6,linear-conflict` is three heuristics.
pub fn parse_heuristic_list(s: &str) -> Result<HeuristicList, String> {
    let mut names: Vec<String> = Vec::new();
    for piece in s.split([',', ';']).map(str::trim) {
        match names.last_mut() {
            Some(last) if piece.starts_with(|c: char| c.is_ascii_digit()) => {
                last.push(',');
                last.push_str(piece);
            }
            _ if piece.is_empty() => return Err(format!("\"{s}\": an empty heuristic name")),
            _ => names.push(piece.to_string()),
        }
    }
    if names.is_empty() {
        return Err("the list of heuristics is empty".into());
    }
    names
        .iter()
        .map(|n| n.parse::<HeuristicKind>())
        .collect::<Result<_, _>>()
        .map(HeuristicList)
}

/// Parses `RxC` (`4x4`, `3X5`), or `N` for N x N.
pub fn parse_rxc(s: &str) -> anyhow::Result<(usize, usize)> {
    if let Ok(n) = s.trim().parse::<usize>() {
        return Ok((n, n));
    }
    let (r, c) = s
        .split_once(['x', 'X'])
        .with_context(|| format!("--size \"{s}\": expected ROWSxCOLS, e.g. 4x4"))?;
    let r: usize = r
        .trim()
        .parse()
        .with_context(|| format!("--size \"{s}\": rows \"{r}\" is not a number"))?;
    let c: usize = c
        .trim()
        .parse()
        .with_context(|| format!("--size \"{s}\": columns \"{c}\" is not a number"))?;
    Ok((r, c))
}

impl BoardSize {
    /// The size given, if any.
    pub fn get(&self) -> anyhow::Result<Option<(usize, usize)>> {
        Ok(match (&self.size, self.n, self.rows, self.cols) {
            (Some(s), ..) => Some(parse_rxc(s)?),
            (None, Some(n), ..) => Some((n, n)),
            (None, None, Some(r), Some(c)) => Some((r, c)),
            _ => None,
        })
    }

    /// The size given, else `default`, else an error saying how to give it.
    pub fn get_or(&self, default: Option<(usize, usize)>) -> anyhow::Result<(usize, usize)> {
        match self.get()?.or(default) {
            Some(size) => Ok(size),
            None => bail!("give the board size with --size RxC, --n N or --rows R --cols C"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heuristic_lists_keep_the_commas_of_tile_groups() {
        let names = |s: &str| -> Vec<String> {
            parse_heuristic_list(s)
                .unwrap()
                .0
                .iter()
                .map(HeuristicKind::name)
                .collect()
        };
        assert_eq!(
            names("manhattan,pdb:1,2,3/4,5,6,linear-conflict"),
            ["manhattan", "pdb:1,2,3/4,5,6", "linear-conflict"]
        );
        assert_eq!(names("pdb:6-6-3,pdb"), ["pdb:6-6-3", "pdb"]);
        assert!(parse_heuristic_list("manhattan,,pdb").is_err());
        assert!(parse_heuristic_list("manhattan,2").is_err());
        assert!(parse_heuristic_list("").is_err());
    }

    #[test]
    fn every_spelling_of_a_size_means_the_same() {
        let size = |size: Option<&str>, n, rows, cols| BoardSize {
            size: size.map(str::to_string),
            n,
            rows,
            cols,
        };
        assert_eq!(
            size(Some("3x5"), None, None, None).get().unwrap(),
            Some((3, 5))
        );
        assert_eq!(
            size(None, None, Some(3), Some(5)).get().unwrap(),
            Some((3, 5))
        );
        assert_eq!(
            size(Some("4X4"), None, None, None).get().unwrap(),
            Some((4, 4))
        );
        assert_eq!(size(None, Some(4), None, None).get().unwrap(), Some((4, 4)));
        assert_eq!(
            size(None, None, None, None).get_or(Some((4, 4))).unwrap(),
            (4, 4)
        );
        assert_eq!(
            size(Some("5"), None, None, None).get().unwrap(),
            Some((5, 5))
        );
        let e = size(Some("3y3"), None, None, None).get().unwrap_err();
        assert!(e.to_string().contains("expected ROWSxCOLS"), "{e}");
        assert!(size(None, None, None, None).get_or(None).is_err());
    }

    #[test]
    fn heuristic_lists_keep_tile_groups() {
        let h = parse_heuristic_list("manhattan,pdb:1,2,3/4,5,6,7,8:noreflect,linear-conflict")
            .unwrap()
            .0;
        assert_eq!(h.len(), 3);
        assert_eq!(h[0], HeuristicKind::Manhattan);
        assert!(
            h[1].name().starts_with("pdb:1,2,3/4,5,6,7,8"),
            "{}",
            h[1].name()
        );
        assert_eq!(h[2], HeuristicKind::LinearConflict);
        let semi = parse_heuristic_list("pdb:1,2,3/4,5,6,7,8;misplaced")
            .unwrap()
            .0;
        assert_eq!(semi.len(), 2);
        assert!(semi[0].name().starts_with("pdb:1,2,3/4,5,6,7,8"));
        assert_eq!(semi[1], HeuristicKind::Misplaced);
        assert!(parse_heuristic_list("").is_err());
        assert!(
            parse_heuristic_list("manhattan,magic")
                .unwrap_err()
                .contains("magic")
        );
    }
}
