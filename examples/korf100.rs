//! Solves Korf's 100 15-puzzle instances with IDA* and one heuristic, and prints per-instance
//! and total figures. Used by `scripts/korf100-pdb.sh`.
//!
//! `cargo run --release --example korf100 -- [HEURISTIC] [TSV] [FIRST] [COUNT]`
//! (defaults: pdb:7-8, data/korf100.tsv, 1, 100).

use std::time::{Duration, Instant};

use npuzzle::{Algorithm, Board, Goal, HeuristicKind, Limits, Outcome, solve};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let heuristic: HeuristicKind = args
        .first()
        .map(String::as_str)
        .unwrap_or("pdb:7-8")
        .parse()?;
    let path = args
        .get(1)
        .filter(|s| !s.is_empty())
        .cloned()
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/data/korf100.tsv").to_string());
    let first: usize = args.get(2).map(|s| s.parse()).transpose()?.unwrap_or(1);
    let count: usize = args.get(3).map(|s| s.parse()).transpose()?.unwrap_or(100);
    let text = std::fs::read_to_string(&path)?;
    let (mut total_gen, mut total_search, mut solved, mut wrong) = (0u64, Duration::ZERO, 0, 0);
    let mut setup = Duration::ZERO;
    let wall = Instant::now();
    println!("id\toptimal\tlength\tgenerated\tsearch_ms\tsetup_ms");
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let id: usize = cols[0].parse()?;
        if id < first || id >= first + count {
            continue;
        }
        let optimal: usize = cols[1].parse()?;
        let tiles: Vec<u32> = cols[4]
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()?;
        let board = Board::new(4, 4, tiles)?;
        let r = solve(
            &board,
            Goal::BlankFirst,
            Algorithm::Idastar,
            &heuristic,
            &Limits::default(),
        )?;
        let len = r.moves.as_ref().map_or(0, Vec::len);
        assert_eq!(r.status, Outcome::Solved);
        if len != optimal {
            wrong += 1;
        }
        solved += 1;
        total_gen += r.stats.generated;
        total_search += r.search_time;
        setup += r.setup_time;
        println!(
            "{id}\t{optimal}\t{len}\t{}\t{:.3}\t{:.1}",
            r.stats.generated,
            r.search_time.as_secs_f64() * 1e3,
            r.setup_time.as_secs_f64() * 1e3
        );
    }
    println!(
        "# {heuristic}: {solved} solved, {wrong} not at the published optimal length, \
         {:.0} generated nodes per instance, search {:.3} s total, setup {:.3} s total, wall {:.3} s",
        total_gen as f64 / solved.max(1) as f64,
        total_search.as_secs_f64(),
        setup.as_secs_f64(),
        wall.elapsed().as_secs_f64()
    );
    if wrong > 0 {
        std::process::exit(1);
    }
    Ok(())
}
