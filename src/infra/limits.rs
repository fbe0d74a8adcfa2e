//! Per-job limits as the command line spells them: sizes (`64MiB`, `2GiB`), durations (`60s`,
//! `500ms`, `2m`) and the default memory budget (a safe share of physical memory per thread).

use std::time::Duration;

use thiserror::Error;

/// A size or duration that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LimitError {
    /// Not a size.
    #[error(
        "\"{0}\" is not a size: expected a number with an optional unit B, KiB, MiB, GiB, TiB \
         (powers of 1024; K, M, G, T mean the same) or KB, MB, GB, TB (powers of 1000), e.g. 64MiB"
    )]
    Size(String),
    /// Not a duration.
    #[error(
        "\"{0}\" is not a duration: expected a number with an optional unit ms, s, m or h \
         (seconds when absent), e.g. 60s, 500ms, 2m, or \"none\""
    )]
    Duration(String),
    /// A zero duration as a limit: it could not be honoured (every job would stop before it
    /// starts), so it is refused.
    #[error(
        "\"{0}\" is no limit: a job cannot finish in no time; give a positive duration, or \"none\""
    )]
    ZeroDuration(String),
    /// A memory limit too small to hold any search, refused rather than silently not honoured.
    #[error(
        "\"{0}\" is too small for a memory limit: at least {MIN_MEMORY_LIMIT} bytes (64KiB), or \"none\""
    )]
    TinySize(String),
}

/// The smallest memory limit accepted: below it no job (not even the program itself) fits, so
/// the limit could only be ignored.
pub const MIN_MEMORY_LIMIT: u64 = 64 * 1024;

/// Parses a per-job time limit (`--timeout`, `--cpu-limit`): a positive duration or `none`.
pub fn parse_duration_limit(s: &str) -> Result<Option<Duration>, LimitError> {
    match parse_duration(s)? {
        Some(d) if d.is_zero() => Err(LimitError::ZeroDuration(s.to_string())),
        d => Ok(d),
    }
}

/// Parses a per-job memory limit (`--max-memory`): at least [`MIN_MEMORY_LIMIT`], or `none`.
pub fn parse_memory_limit(s: &str) -> Result<Option<u64>, LimitError> {
    match parse_optional_size(s)? {
        Some(b) if b < MIN_MEMORY_LIMIT => Err(LimitError::TinySize(s.to_string())),
        b => Ok(b),
    }
}

/// Splits `"12.5GiB"` into `(12.5, "GiB")`.
fn split_number(s: &str) -> Option<(f64, &str)> {
    let s = s.trim();
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(end);
    let value: f64 = num.parse().ok()?;
    (value.is_finite() && value >= 0.0).then_some((value, unit.trim()))
}

/// Parses a size in bytes: `123`, `64MiB`, `2GiB`, `1.5G`, `500MB`.
pub fn parse_size(s: &str) -> Result<u64, LimitError> {
    let err = || LimitError::Size(s.to_string());
    let (value, unit) = split_number(s).ok_or_else(err)?;
    let factor: f64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kib" => 1024.0,
        "m" | "mib" => 1024.0 * 1024.0,
        "g" | "gib" => 1024.0 * 1024.0 * 1024.0,
        "t" | "tib" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "tb" => 1e12,
        _ => return Err(err()),
    };
    let bytes = value * factor;
    if bytes >= u64::MAX as f64 {
        return Err(err());
    }
    Ok(bytes.round() as u64)
}

/// Parses a duration: `60` (seconds), `60s`, `500ms`, `2m`, `1.5h`; `none` = no limit.
pub fn parse_duration(s: &str) -> Result<Option<Duration>, LimitError> {
    if s.trim().eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let err = || LimitError::Duration(s.to_string());
    let (value, unit) = split_number(s).ok_or_else(err)?;
    let secs = match unit {
        "ms" => value / 1000.0,
        "" | "s" => value,
        "m" | "min" => value * 60.0,
        "h" => value * 3600.0,
        _ => return Err(err()),
    };
    Duration::try_from_secs_f64(secs)
        .map(Some)
        .map_err(|_| err())
}

/// Parses a size; `none` = no limit.
pub fn parse_optional_size(s: &str) -> Result<Option<u64>, LimitError> {
    if s.trim().eq_ignore_ascii_case("none") {
        Ok(None)
    } else {
        parse_size(s).map(Some)
    }
}

/// Physical memory in bytes (`MemTotal` of `/proc/meminfo`), if known.
pub fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_meminfo_total(&text)
}

fn parse_meminfo_total(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The share of physical memory that all jobs together may use by default.
pub const DEFAULT_MEMORY_SHARE: f64 = 0.7;

/// Per-job budget when physical memory is unknown.
pub const FALLBACK_MEMORY_PER_THREAD: u64 = 1 << 30;

/// The default per-job memory budget: 70% of physical memory divided by the number of worker
/// threads (1 GiB per thread when physical memory is unknown).
pub fn default_max_memory(threads: usize) -> u64 {
    match physical_memory() {
        Some(total) => (total as f64 * DEFAULT_MEMORY_SHARE / threads.max(1) as f64) as u64,
        None => FALLBACK_MEMORY_PER_THREAD,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("64MiB").unwrap(), 64 * 1024 * 1024);
        assert_eq!(parse_size("2GiB").unwrap(), 2 * 1024 * 1024 * 1024);
        assert_eq!(parse_size("2 gib").unwrap(), 2 * 1024 * 1024 * 1024);
        assert_eq!(parse_size("1.5K").unwrap(), 1536);
        assert_eq!(parse_size("500MB").unwrap(), 500_000_000);
        assert_eq!(parse_size("4096").unwrap(), 4096);
        assert_eq!(parse_size("7B").unwrap(), 7);
        for bad in ["", "MiB", "-1MiB", "12 parsecs", "1e9", "1.2.3G"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_optional_size("none").unwrap(), None);
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("60").unwrap(), Some(Duration::from_secs(60)));
        assert_eq!(
            parse_duration("60s").unwrap(),
            Some(Duration::from_secs(60))
        );
        assert_eq!(
            parse_duration("250ms").unwrap(),
            Some(Duration::from_millis(250))
        );
        assert_eq!(
            parse_duration("2m").unwrap(),
            Some(Duration::from_secs(120))
        );
        assert_eq!(
            parse_duration("1.5h").unwrap(),
            Some(Duration::from_secs(5400))
        );
        assert_eq!(parse_duration("none").unwrap(), None);
        for bad in ["", "s", "5 fortnights", "-3s"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn limits_that_cannot_be_honoured_are_refused() {
        for zero in ["0", "0s", "0ms", "0.0"] {
            assert!(matches!(
                parse_duration_limit(zero),
                Err(LimitError::ZeroDuration(_))
            ));
        }
        assert_eq!(
            parse_duration_limit("1ms").unwrap(),
            Some(Duration::from_millis(1))
        );
        assert_eq!(parse_duration_limit("none").unwrap(), None);
        for tiny in ["1B", "0", "63KiB"] {
            assert!(matches!(
                parse_memory_limit(tiny),
                Err(LimitError::TinySize(_))
            ));
        }
        assert_eq!(parse_memory_limit("64KiB").unwrap(), Some(65536));
        assert_eq!(parse_memory_limit("none").unwrap(), None);
    }

    #[test]
    fn meminfo_and_formatting() {
        let text = "MemTotal:       24683660 kB\nMemFree:        23915936 kB\n";
        assert_eq!(parse_meminfo_total(text), Some(24683660 * 1024));
        assert_eq!(parse_meminfo_total("nothing here"), None);
    }
}
