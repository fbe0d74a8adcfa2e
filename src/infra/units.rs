//! How quantities are written for people and in results files: bytes with a binary unit and
//! durations in milliseconds. One spelling each, shared by `bench run`'s messages and summary,
//! `bench report`'s tables, `bench solve` and the results rows.

use std::time::Duration;

/// Bytes with a binary unit: `512 B`, `1.5 KiB`, `64.0 MiB`, `2.0 GiB`, `1.0 TiB`. Takes an
/// `f64` so that means of byte counts are written the same way.
pub fn format_bytes(bytes: f64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{value:.0} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// A duration in milliseconds, rounded to the microsecond (plenty, and it keeps CSV cells short).
pub fn millis(d: Duration) -> f64 {
    ((d.as_nanos() + 500) / 1000) as f64 / 1e3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_and_milliseconds() {
        assert_eq!(format_bytes(512.0), "512 B");
        assert_eq!(format_bytes(1536.0), "1.5 KiB");
        assert_eq!(format_bytes(64.0 * 1024.0 * 1024.0), "64.0 MiB");
        assert_eq!(format_bytes(1.5 * 1024.0 * 1024.0 * 1024.0), "1.5 GiB");
        assert_eq!(millis(Duration::from_micros(1500)), 1.5);
        assert_eq!(millis(Duration::from_nanos(2_000_400)), 2.0);
        assert_eq!(millis(Duration::from_nanos(2_000_600)), 2.001);
        assert_eq!(millis(Duration::ZERO), 0.0);
    }
}
