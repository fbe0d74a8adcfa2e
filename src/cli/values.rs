//! The parsers behind the shared flags: durations and sizes (through [`crate::infra::limits`],
//! the one parser of both), lists of heuristics whose pattern-database tile groups contain
//! commas, board sizes `RxC`, and closed value sets ([`Closed`]: the library's
//! `clap::ValueEnum` types).

use std::ffi::OsStr;
use std::marker::PhantomData;
use std::time::Duration;

use anyhow::Context;
use clap::ValueEnum;
use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;

use crate::heuristic::HeuristicKind;
use crate::infra::limits;

/// A duration limit, `none` for unlimited.
#[derive(Debug, Clone, Copy)]
pub struct DurationLimit(pub Option<Duration>);

/// Parses `--timeout`: `60s`, `500ms`, `2m`, a plain number of seconds, or `none`.
pub fn parse_duration_limit(s: &str) -> Result<DurationLimit, String> {
    limits::parse_duration_limit(s)
        .map(DurationLimit)
        .map_err(|e| e.to_string())
}

/// A size limit, `none` for unlimited.
#[derive(Debug, Clone, Copy)]
pub struct SizeLimit(pub Option<u64>);

/// Parses `--max-memory`: `64MiB`, `2GiB`, `500MB`, a plain number of bytes, or `none`.
pub fn parse_size_limit(s: &str) -> Result<SizeLimit, String> {
    limits::parse_memory_limit(s)
        .map(SizeLimit)
        .map_err(|e| e.to_string())
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

/// The parser of a closed value set, a library type's [`ValueEnum`]: `--help` lists the
/// names on one line (the flag's own help says what they mean; the types' doc comments are
/// for the library's readers), old spellings (aliases) are accepted unlisted, and any other
/// value fails while the arguments are parsed, naming the flag, the value and the names.
pub struct Closed<T> {
    what: &'static str,
    values: PhantomData<fn() -> T>,
}

impl<T> Clone for Closed<T> {
    fn clone(&self) -> Self {
        closed(self.what)
    }
}

/// The parser of `T`'s values; `what` names one in messages (`unknown goal "x"`).
pub fn closed<T>(what: &'static str) -> Closed<T> {
    Closed {
        what,
        values: PhantomData,
    }
}

/// `a`, `a or b`, `a, b or c`.
fn either(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

impl<T: ValueEnum + Clone + Send + Sync + 'static> TypedValueParser for Closed<T> {
    type Value = T;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let flag = arg
            .and_then(clap::Arg::get_long)
            .map_or("the value".to_string(), |l| format!("--{l}"));
        let s = value.to_str().ok_or_else(|| {
            clap::Error::raw(ErrorKind::InvalidUtf8, format!("{flag}: not UTF-8\n"))
        })?;
        T::from_str(s, false).map_err(|_| {
            let names: Vec<PossibleValue> = T::value_variants()
                .iter()
                .filter_map(ValueEnum::to_possible_value)
                .filter(|v| !v.is_hide_set())
                .collect();
            let names: Vec<&str> = names.iter().map(PossibleValue::get_name).collect();
            clap::Error::raw(
                ErrorKind::InvalidValue,
                format!(
                    "{flag}: unknown {} \"{s}\": expected {} (possible values: {})\n",
                    self.what,
                    either(&names),
                    names.join(", ")
                ),
            )
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            T::value_variants()
                .iter()
                .filter_map(ValueEnum::to_possible_value)
                .map(|v| v.help(None::<&'static str>)),
        ))
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
