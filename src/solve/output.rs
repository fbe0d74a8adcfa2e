//! How `bench solve` prints a [`Reply`]: the boards, the blank positions, the JSON object,
//! the JSON rejection, the messages on stderr; and the exit status that goes with each.

use std::io::{self, Write};

use super::{EXIT_USAGE, Output, Reply, Request, Solved};
use crate::board::{Board, Move};
use crate::infra::output::WriteError;

/// The default board-by-board output is refused above this many bytes (unless
/// `--long-output`).
pub const MAX_BOARDS_OUTPUT_BYTES: u64 = 64 << 20;

/// 1-based row-major positions of the blank, start included, computed from the moves alone
/// (constant work per move, whatever the board size).
pub fn blank_positions<'a>(start: &Board, moves: &'a [Move]) -> impl Iterator<Item = usize> + 'a {
    let (rows, cols) = (start.rows(), start.cols());
    let mut blank = start.blank();
    std::iter::once(blank + 1).chain(moves.iter().map(move |m| {
        blank = m
            .target(blank, rows, cols)
            .expect("search::solve replays every solution");
        blank + 1
    }))
}

/// Prints `reply` as `req.output` asks (results on `out`, messages on `err`); returns the
/// exit status. A closed pipe on `out` (`| head`) is not an error; any other failure to
/// write the solution is a [`WriteError`] (exit status 74 at the edge).
pub fn write(
    reply: &Reply,
    req: &Request,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, WriteError> {
    let written = match reply {
        Reply::Rejected(rejection) => {
            let mut s = serde_json::to_string(rejection).expect("a rejection encodes as JSON");
            s.push('\n');
            out.write_all(s.as_bytes())
        }
        Reply::Usage(message) | Reply::Internal(message) => {
            let _ = writeln!(err, "error: {message}");
            Ok(())
        }
        Reply::Stopped(message, stopped) => {
            let _ = writeln!(err, "error: {message}");
            if req.output == Output::Json {
                // The statistics of the stopped search, for `bench run --isolate`.
                let s = serde_json::to_string(&stopped.json()).expect("JSON of numbers");
                out.write_all((s + "\n").as_bytes())
            } else {
                Ok(())
            }
        }
        Reply::Solved(solved) => {
            if !req.quiet {
                let _ = writeln!(err, "{}", solved_line(solved));
            }
            match write_solution(solved, req.output, out) {
                Ok(Some(refusal)) => {
                    let _ = writeln!(err, "error: {refusal}");
                    return Ok(EXIT_USAGE);
                }
                Ok(None) => Ok(()),
                Err(e) => Err(e),
            }
        }
    };
    match written.and_then(|()| out.flush()) {
        Err(error) if error.kind() != io::ErrorKind::BrokenPipe => Err(WriteError {
            path: "<stdout>".into(),
            error,
        }),
        _ => Ok(reply.exit_status()),
    }
}

/// `solved with ALGO + H: N moves, optimal`.
fn solved_line(s: &Solved) -> String {
    format!(
        "solved with {}{}: {} moves, {}",
        s.algorithm,
        if s.algorithm.is_blind() {
            String::new()
        } else {
            format!(" + {}", s.heuristic)
        },
        s.moves().len(),
        if s.report.optimal {
            "optimal"
        } else {
            "not guaranteed optimal"
        }
    )
}

/// Writes the solution; `Ok(Some(why))` when the boards would be too long to print.
fn write_solution(s: &Solved, output: Output, out: &mut dyn Write) -> io::Result<Option<String>> {
    let moves = s.moves();
    match output {
        Output::Json => {
            serde_json::to_writer(&mut *out, &s.json()).map_err(io::Error::from)?;
            out.write_all(b"\n")?;
        }
        Output::Short => {
            for (i, p) in blank_positions(&s.board, moves).enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                write!(out, "{p}")?;
            }
            out.write_all(b"\n")?;
        }
        Output::Boards { long_output } => {
            let bytes = boards_output_bytes(&s.board, moves);
            if bytes > MAX_BOARDS_OUTPUT_BYTES && !long_output {
                return Ok(Some(format!(
                    "the solution has {} moves; printing every board would write about {} MB. \
                     Use --short (blank positions) or --format json (moves), or --long-output.",
                    moves.len(),
                    bytes >> 20
                )));
            }
            write_boards(&s.board, moves, out)?;
        }
    }
    Ok(None)
}

/// About how many bytes [`write_boards`] writes.
fn boards_output_bytes(start: &Board, moves: &[Move]) -> u64 {
    let cells = start.cells() as u64;
    let digits = (cells.max(2) as f64).log10().ceil() as u64 + 1;
    (moves.len() as u64 + 1) * (cells * digits + 1)
}

/// The default output: every board as rows of space-separated numbers, one blank line between
/// boards, replayed one move at a time (one board in memory).
fn write_boards(start: &Board, moves: &[Move], out: &mut dyn Write) -> io::Result<()> {
    let mut b = start.clone();
    writeln!(out, "{b}")?;
    for &m in moves {
        let legal = b.apply(m);
        debug_assert!(legal, "search::solve replays every solution");
        writeln!(out, "\n{b}")?;
    }
    Ok(())
}
