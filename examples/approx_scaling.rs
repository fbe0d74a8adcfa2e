//! Scaling of the polynomial-time solver on uniformly random solvable n x n boards.
//!
//! ```sh
//! cargo run --release --example approx_scaling               # n = 4 10 30 100 300 1000
//! cargo run --release --example approx_scaling -- 4 10 30    # chosen sizes
//! ```
//!
//! For each n: boards solved (fewer for big n), mean solution length, mean ratio to the
//! Manhattan lower bound, mean ratio to (8/3) n^3, mean solve time and mean replay time.
//! Seeded (ChaCha8, seed = n), so runs are repeatable.

use std::time::Duration;

use npuzzle::approx::solve_approx;
use npuzzle::board::{Board, Goal};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_board(n: usize, goal: Goal, rng: &mut ChaCha8Rng) -> Board {
    let cells = n * n;
    let mut tiles: Vec<u32> = (0..cells as u32).collect();
    for i in (1..cells).rev() {
        tiles.swap(i, rng.random_range(0..=i));
    }
    let b = Board::new(n, n, tiles.clone()).expect("a permutation");
    if b.is_solvable(goal) {
        return b;
    }
    let two: Vec<usize> = (0..cells).filter(|&i| tiles[i] != 0).take(2).collect();
    tiles.swap(two[0], two[1]);
    Board::new(n, n, tiles).expect("a permutation")
}

fn boards_for(n: usize) -> usize {
    match n {
        0..=10 => 1000,
        11..=30 => 200,
        31..=100 => 20,
        101..=300 => 3,
        _ => 1,
    }
}

fn main() {
    let sizes: Vec<usize> = {
        let args: Vec<String> = std::env::args().skip(1).collect();
        if args.is_empty() {
            vec![4, 10, 30, 100, 300, 1000]
        } else {
            match args.iter().map(|a| a.parse::<usize>()).collect() {
                Ok(v) => v,
                Err(e) => {
                    eprintln!("usage: approx_scaling [n ...]  (bad size: {e})");
                    std::process::exit(2);
                }
            }
        }
    };
    println!(
        "| n | boards | mean moves | moves / Manhattan | moves / (8/3)n^3 | mean solve | mean replay |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for n in sizes {
        let k = boards_for(n);
        let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
        let (mut len, mut r_md, mut r_cube) = (0f64, 0f64, 0f64);
        let (mut t_solve, mut t_verify) = (Duration::ZERO, Duration::ZERO);
        let cube = 8.0 / 3.0 * (n as f64).powi(3);
        for i in 0..k {
            let goal = if i % 2 == 0 {
                Goal::BlankLast
            } else {
                Goal::BlankFirst
            };
            let b = random_board(n, goal, &mut rng);
            let sol = match solve_approx(&b, goal) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("n = {n}, board {i}: {e}");
                    std::process::exit(1);
                }
            };
            let m = sol.stats.moves as f64;
            len += m;
            r_md += m / sol.stats.manhattan.max(1) as f64;
            r_cube += m / cube;
            t_solve += sol.stats.solve_time;
            t_verify += sol.stats.verify_time;
        }
        let kf = k as f64;
        println!(
            "| {n} | {k} | {:.0} | {:.2} | {:.3} | {:.3?} | {:.3?} |",
            len / kf,
            r_md / kf,
            r_cube / kf,
            t_solve / k as u32,
            t_verify / k as u32,
        );
    }
}
