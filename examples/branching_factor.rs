//! The brute-force branching factor of IDA*'s tree with and without duplicate-path pruning:
//! the number of move paths of each length on an R x C board (summed over every start cell),
//! pruned by the move automaton of length 2 (only the move back) and of the default length.
//!
//!     cargo run --release --example branching_factor -- 5 5 40

use npuzzle::board::Move;
use npuzzle::search::duplicates::{DEFAULT_MAX_LEN, MoveAutomaton};

fn main() {
    let arg = |i: usize, default: usize| {
        std::env::args()
            .nth(i)
            .map_or(default, |v| v.parse().expect("a number"))
    };
    let (rows, cols, depth) = (arg(1, 5), arg(2, 5), arg(3, 40));
    let steps = [
        (Move::Up, -1, 0),
        (Move::Down, 1, 0),
        (Move::Left, 0, -1),
        (Move::Right, 0, 1),
    ];
    for len in [2, DEFAULT_MAX_LEN] {
        let a = MoveAutomaton::new(len);
        let states = a.states();
        // paths[cell * states + state]: paths ending on `cell` with the automaton in `state`.
        let mut paths = vec![0f64; rows * cols * states];
        for cell in 0..rows * cols {
            paths[cell * states] = 1.0;
        }
        let mut previous = (rows * cols) as f64;
        for d in 1..=depth {
            let mut next = vec![0f64; paths.len()];
            for (i, &count) in paths.iter().enumerate().filter(|(_, c)| **c > 0.0) {
                let (cell, state) = (i / states, i % states);
                let (r, c) = ((cell / cols) as isize, (cell % cols) as isize);
                for (m, dr, dc) in steps {
                    let (nr, nc) = (r + dr, c + dc);
                    if nr < 0 || nc < 0 || nr >= rows as isize || nc >= cols as isize {
                        continue;
                    }
                    let t = a.step(state as u32, m);
                    if t != MoveAutomaton::DEAD {
                        next[(nr as usize * cols + nc as usize) * states + t as usize] += count;
                    }
                }
            }
            paths = next;
            let total: f64 = paths.iter().sum();
            if d == depth {
                println!(
                    "{rows} x {cols}, strings up to {len:2} moves ({states} states): \
                     {total:.4e} paths of {d} moves, branching factor {:.4}",
                    total / previous
                );
            }
            previous = total;
        }
    }
}
