//! Quick throughput probe: `cargo run --release --example perf -- ALGO HEUR ID...`
use npuzzle::*;
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let algo: Algorithm = a[0].parse().unwrap();
    let h: HeuristicKind = a[1].parse().unwrap();
    let data =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/korf100.tsv")).unwrap();
    let ids: Vec<usize> = a[2..].iter().map(|s| s.parse().unwrap()).collect();
    let (mut tg, mut tt) = (0u64, 0f64);
    for line in data.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let id: usize = f[0].parse().unwrap();
        if !ids.is_empty() && !ids.contains(&id) {
            continue;
        }
        let tiles: Vec<u32> = f[4].split(' ').map(|x| x.parse().unwrap()).collect();
        let b = Board::new(4, 4, tiles).unwrap();
        let r = solve(&b, Goal::BlankFirst, algo, &h, &Limits::default()).unwrap();
        let s = r.search_time.as_secs_f64();
        tg += r.stats.generated;
        tt += s;
        println!(
            "{id} opt {} got {} gen {} exp {} stored {} mem {} | {:.3}s {:.2} Mgen/s {:.2} Mexp/s",
            f[1],
            r.moves.as_ref().map_or(0, |m| m.len()),
            r.stats.generated,
            r.stats.expanded,
            r.stats.stored_peak,
            r.stats.memory_bytes,
            s,
            r.stats.generated as f64 / s / 1e6,
            r.stats.expanded as f64 / s / 1e6
        );
    }
    println!(
        "total gen {tg} time {tt:.3}s {:.2} Mgen/s",
        tg as f64 / tt / 1e6
    );
}
