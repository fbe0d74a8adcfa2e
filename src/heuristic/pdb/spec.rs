//! Which pattern databases to use: the `pdb:...` names and the tile groups they stand for.

use std::fmt;
use std::str::FromStr;

use crate::board::Goal;
use crate::geometry::Geometry;

use super::super::HeuristicError;
use super::table::{build_bytes, entries};

/// At most this many databases in one partition (the memo carries one byte per database).
pub const MAX_GROUPS: usize = 16;

/// The largest single database a partition may ask for, in entries (the index is a `u32`
/// domain and the table is held in memory).
pub const MAX_ENTRIES: u64 = 1 << 32;

/// The most memory one database's build may take (table plus build state; the 8-tile
/// database of `7-8` takes 2.6 GB).
pub const MAX_BUILD_BYTES: u64 = 6 << 30;

/// `pdb:full` / automatic: the full database (one group of all tiles) is used when it has at
/// most this many entries (3 x 3: 362,880; 2 x 5: 3.6 M).
pub const FULL_AUTO_ENTRIES: u64 = 1 << 24;

/// Automatic partitions use the largest groups whose build stays within this many bytes each.
pub const AUTO_BUDGET_BYTES: u64 = 256 << 20;

/// The standard partitions of Korf & Felner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Standard {
    /// 4 x 4, three groups of 5.
    P555,
    /// 4 x 4, groups of 6, 6 and 3.
    P663,
    /// 4 x 4, groups of 7 and 8.
    P78,
    /// 5 x 5, four groups of 6.
    P6666,
}

impl Standard {
    /// The command-line name (after `pdb:`).
    pub fn name(self) -> &'static str {
        match self {
            Standard::P555 => "5-5-5",
            Standard::P663 => "6-6-3",
            Standard::P78 => "7-8",
            Standard::P6666 => "6-6-6-6",
        }
    }

    /// The side of the square board it is defined for.
    pub fn side(self) -> usize {
        match self {
            Standard::P6666 => 5,
            _ => 4,
        }
    }

    /// The groups for the blank-first goal (tile `t` belongs on cell `t`).
    ///
    /// ```text
    /// 7-8:    . a a a    6-6-3:  . a a b    5-5-5:  . a a b    6-6-6-6:  . a a b b
    ///         a a a a            a a b b            a a b b              a a a b b
    ///         b b b b            a a b b            a c b b              c c a b b
    ///         b b b b            c c c b            c c c c              c c d d d
    ///                                                                    c c d d d
    /// ```
    /// The 4 x 4 groups are those of the widely used Korf & Felner-style solvers (measured on
    /// Korf's 100 with reflection: 6-6-3 564,368 and 5-5-5 about 1.5 M generated nodes per
    /// instance, against 1.2 M and 3.5 M for the row-block variants tried first).
    pub fn blank_first_groups(self) -> Vec<Vec<u8>> {
        match self {
            Standard::P555 => vec![
                vec![1, 2, 4, 5, 8],
                vec![3, 6, 7, 10, 11],
                vec![9, 12, 13, 14, 15],
            ],
            Standard::P663 => vec![
                vec![1, 2, 4, 5, 8, 9],
                vec![3, 6, 7, 10, 11, 15],
                vec![12, 13, 14],
            ],
            Standard::P78 => vec![
                vec![1, 2, 3, 4, 5, 6, 7],
                vec![8, 9, 10, 11, 12, 13, 14, 15],
            ],
            Standard::P6666 => vec![
                vec![1, 2, 5, 6, 7, 12],
                vec![3, 4, 8, 9, 13, 14],
                vec![10, 11, 15, 16, 20, 21],
                vec![17, 18, 19, 22, 23, 24],
            ],
        }
    }
}

/// The tile groups of a pattern-database heuristic.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Partition {
    /// `pdb` / `pdb:auto`: the full database if small, the standard 6-6-3 on 4 x 4, else the
    /// largest groups of consecutive tiles within [`AUTO_BUDGET_BYTES`].
    Auto,
    /// `pdb:full`: one database of all tiles (exact distances).
    Full,
    /// A standard partition.
    Standard(Standard),
    /// `pdb:1,2,3/4,5,6`: groups given by tile numbers (tiles left out count 0).
    Groups(Vec<Vec<u16>>),
}

/// A pattern-database heuristic as named on the command line:
/// `pdb[:PARTITION][:noreflect][:compact]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PdbSpec {
    /// The tile groups.
    pub partition: Partition,
    /// Whether square boards also look up the position mirrored about the main diagonal.
    pub reflect: bool,
    /// Keep the compact (ranked) layout in memory even where the faster direct layout fits
    /// (see `pdb::Layout`): about half the memory for 6-6-6-6, slower lookups.
    pub compact: bool,
}

impl PdbSpec {
    /// A spec with reflection on.
    pub fn new(partition: Partition) -> PdbSpec {
        PdbSpec {
            partition,
            reflect: true,
            compact: false,
        }
    }

    /// The concrete tile groups for `g` (each group's tiles in the order the database ranks
    /// them).
    pub fn groups(&self, g: &Geometry) -> Result<Vec<Vec<u8>>, HeuristicError> {
        let not_for = |why: String| HeuristicError::NotForSize {
            name: self.to_string(),
            rows: g.rows,
            cols: g.cols,
            why,
        };
        let n = g.cells;
        let groups = match &self.partition {
            Partition::Standard(s) => {
                if g.rows != s.side() || g.cols != s.side() {
                    return Err(not_for(format!(
                        "the standard {} partition is defined for {} x {} boards",
                        s.name(),
                        s.side(),
                        s.side()
                    )));
                }
                let groups = s.blank_first_groups();
                match g.goal {
                    Goal::BlankFirst => groups,
                    // Rotating the board by 180 degrees maps the blank-first goal onto the
                    // blank-last one: tile t (cell t) lands on cell n-1-t, home of tile n-t.
                    Goal::BlankLast => groups
                        .into_iter()
                        .map(|gr| gr.into_iter().map(|t| n as u8 - t).collect())
                        .collect(),
                }
            }
            Partition::Full => {
                let e = entries(n, n - 1).unwrap_or(u64::MAX);
                if e > MAX_ENTRIES {
                    return Err(not_for(format!(
                        "the full database would have {n}! entries; use a partition"
                    )));
                }
                vec![(1..n as u8).collect()]
            }
            Partition::Auto => auto_groups(g),
            Partition::Groups(groups) => {
                let mut seen = [false; 64];
                for gr in groups {
                    for &t in gr {
                        if t == 0 || usize::from(t) >= n {
                            return Err(not_for(format!(
                                "tile {t} is not a tile of this board (expected 1..={})",
                                n - 1
                            )));
                        }
                        if seen[t as usize] {
                            return Err(not_for(format!("tile {t} is in two groups")));
                        }
                        seen[t as usize] = true;
                    }
                }
                // Every tile is below n <= 64 (checked above).
                groups
                    .iter()
                    .map(|gr| gr.iter().map(|&t| t as u8).collect())
                    .collect()
            }
        };
        if groups.len() > MAX_GROUPS {
            return Err(not_for(format!(
                "{} groups given, at most {MAX_GROUPS} are supported",
                groups.len()
            )));
        }
        for gr in &groups {
            let e = entries(n, gr.len()).unwrap_or(u64::MAX);
            if e > MAX_ENTRIES || build_bytes(n, e) > MAX_BUILD_BYTES {
                return Err(not_for(format!(
                    "a group of {} tiles needs {e} entries ({} MB to build), at most {} MB are \
                     allowed; use smaller groups",
                    gr.len(),
                    build_bytes(n, e) >> 20,
                    MAX_BUILD_BYTES >> 20
                )));
            }
        }
        Ok(groups)
    }
}

/// The automatic partition for `g`.
fn auto_groups(g: &Geometry) -> Vec<Vec<u8>> {
    let n = g.cells;
    if entries(n, n - 1).is_some_and(|e| e <= FULL_AUTO_ENTRIES) {
        return vec![(1..n as u8).collect()];
    }
    if g.rows == 4 && g.cols == 4 {
        return PdbSpec::new(Partition::Standard(Standard::P663))
            .groups(g)
            .expect("6-6-3 fits 4 x 4");
    }
    let mut k = 1;
    while k < n - 1 && entries(n, k + 1).is_some_and(|e| build_bytes(n, e) <= AUTO_BUDGET_BYTES) {
        k += 1;
    }
    // Tiles in goal order (row by row), cut into groups of k.
    let tiles: Vec<u8> = (0..n)
        .map(|c| g.goal.tile_at(c, n) as u8)
        .filter(|&t| t != 0)
        .collect();
    let groups = tiles.len().div_ceil(k);
    let k = if groups > MAX_GROUPS {
        tiles.len().div_ceil(MAX_GROUPS)
    } else {
        k
    };
    tiles.chunks(k).map(<[u8]>::to_vec).collect()
}

impl fmt::Display for PdbSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.partition {
            Partition::Auto => f.write_str("pdb")?,
            Partition::Full => f.write_str("pdb:full")?,
            Partition::Standard(s) => write!(f, "pdb:{}", s.name())?,
            Partition::Groups(groups) => {
                let text: Vec<String> = groups
                    .iter()
                    .map(|g| g.iter().map(u16::to_string).collect::<Vec<_>>().join(","))
                    .collect();
                write!(f, "pdb:{}", text.join("/"))?
            }
        }
        if !self.reflect {
            f.write_str(":noreflect")?;
        }
        if self.compact {
            f.write_str(":compact")?;
        }
        Ok(())
    }
}

impl FromStr for PdbSpec {
    type Err = String;

    /// Parses `pdb`, `pdb:auto`, `pdb:full`, `pdb:5-5-5`, `pdb:6-6-3`, `pdb:7-8`, `pdb:6-6-6-6`
    /// or `pdb:1,2,3/4,5,6`, each optionally followed by `:noreflect` and/or `:compact`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let rest = s
            .strip_prefix("pdb")
            .ok_or_else(|| format!("\"{s}\" is not a pattern-database heuristic (pdb:...)"))?;
        let (mut body, mut reflect, mut compact) = (rest, true, false);
        loop {
            if let Some(b) = body.strip_suffix(":noreflect").filter(|_| reflect) {
                (body, reflect) = (b, false);
            } else if let Some(b) = body.strip_suffix(":compact").filter(|_| !compact) {
                (body, compact) = (b, true);
            } else {
                break;
            }
        }
        let body = match body {
            "" => "auto",
            b => b
                .strip_prefix(':')
                .ok_or_else(|| format!("\"{s}\": expected \"pdb\" or \"pdb:PARTITION\""))?,
        };
        let partition = match body {
            "auto" => Partition::Auto,
            "full" => Partition::Full,
            "5-5-5" => Partition::Standard(Standard::P555),
            "6-6-3" => Partition::Standard(Standard::P663),
            "7-8" => Partition::Standard(Standard::P78),
            "6-6-6-6" => Partition::Standard(Standard::P6666),
            groups => {
                let mut out = Vec::new();
                for (gi, group) in groups.split('/').enumerate() {
                    let mut tiles = Vec::new();
                    for item in group.split(',') {
                        let t: u16 = item.trim().parse().map_err(|_| {
                            format!(
                                "\"{s}\": group {} has \"{item}\" where a tile number was \
                                 expected (partitions: auto, full, 5-5-5, 6-6-3, 7-8, 6-6-6-6 \
                                 or tile groups like 1,2,3/4,5,6)",
                                gi + 1
                            )
                        })?;
                        tiles.push(t);
                    }
                    out.push(tiles);
                }
                Partition::Groups(out)
            }
        };
        Ok(PdbSpec {
            partition,
            reflect,
            compact,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in [
            "pdb",
            "pdb:full",
            "pdb:5-5-5",
            "pdb:6-6-3",
            "pdb:7-8",
            "pdb:6-6-6-6",
            "pdb:1,2,3/4,5",
            "pdb:7-8:noreflect",
            "pdb:6-6-6-6:compact",
            "pdb:6-6-3:noreflect:compact",
        ] {
            let spec: PdbSpec = name.parse().unwrap();
            assert_eq!(spec.to_string(), name);
        }
        assert_eq!("pdb:auto".parse::<PdbSpec>().unwrap().to_string(), "pdb");
        assert_eq!(
            "pdb:7-8:compact:noreflect"
                .parse::<PdbSpec>()
                .unwrap()
                .to_string(),
            "pdb:7-8:noreflect:compact"
        );
        assert!("pdb:7-8:compact:compact".parse::<PdbSpec>().is_err());
        assert!("pdb:1,x".parse::<PdbSpec>().is_err());
        assert!("pdb:".parse::<PdbSpec>().is_err());
        assert!("pdbx".parse::<PdbSpec>().is_err());
    }

    #[test]
    fn standard_partitions_cover_every_tile_once() {
        for s in [
            Standard::P555,
            Standard::P663,
            Standard::P78,
            Standard::P6666,
        ] {
            for goal in [Goal::BlankFirst, Goal::BlankLast] {
                let g = Geometry::new(s.side(), s.side(), goal);
                let groups = PdbSpec::new(Partition::Standard(s)).groups(&g).unwrap();
                let mut all: Vec<u8> = groups.concat();
                all.sort_unstable();
                let expected: Vec<u8> = (1..g.cells as u8).collect();
                assert_eq!(all, expected, "{} {goal}", s.name());
            }
        }
    }

    #[test]
    fn bad_partitions_are_rejected() {
        let g = Geometry::new(3, 3, Goal::BlankLast);
        let bad = |s: &str| s.parse::<PdbSpec>().unwrap().groups(&g).is_err();
        assert!(bad("pdb:1,2/2,3"));
        assert!(bad("pdb:1,9"));
        assert!(bad("pdb:0,1"));
        assert!(bad("pdb:7-8"));
        let g4 = Geometry::new(4, 4, Goal::BlankLast);
        let spec: PdbSpec = "pdb:1,2,3,4,5,6,7,8,9".parse().unwrap();
        assert!(
            spec.groups(&g4)
                .unwrap_err()
                .to_string()
                .contains("smaller groups")
        );
        assert!("pdb:7-8".parse::<PdbSpec>().unwrap().groups(&g4).is_ok());
        assert!(!bad("pdb:1,2,3/4,5"));
    }
}
