//! External solvers: any program that speaks the original task's protocol (one board as a
//! JSON matrix on stdin, the solution on stdout), run in isolation and measured like a
//! built-in algorithm, with every answer replayed before it counts (docs/external-solvers.md).
//!
//! - [`answer`]: reading the forms a solver may answer in, and the replay check.
//! - [`process`]: one process group, kernel-measured time and memory, enforced limits.
//! - [`supervisor`]: a supervisor per command that kills its whole tree when it ends or the
//!   run dies.

pub mod answer;
mod group;
pub mod process;
pub mod supervisor;

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use thiserror::Error;

use crate::board::{Board, Goal, Move};
use crate::search::Outcome;

pub use answer::{Answer, AnswerError, Counters, Form};
pub use process::{Exit, Measured, ProcessError, ProcessLimits};

/// A named external solver, given on the command line as `NAME=COMMAND ARGS`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solver {
    /// The name in the results' `algorithm` column.
    pub name: String,
    /// The command line, run by `/bin/sh -c` after placeholder substitution.
    pub command: String,
}

/// A malformed `--solver` value.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SolverSpecError {
    /// No `=`.
    #[error("--solver {0:?}: expected NAME=COMMAND (e.g. --solver 'mine=python3 solve.py')")]
    NoEquals(String),
    /// A name with characters a CSV column or a file name would trip on.
    #[error("--solver name {0:?}: use letters, digits, '-', '_' or '.', starting with a letter")]
    BadName(String),
    /// An empty command.
    #[error("--solver {0}: the command is empty")]
    EmptyCommand(String),
    /// A placeholder we do not know.
    #[error(
        "--solver {name}: unknown placeholder {{{placeholder}}} (known: {{rows}}, {{cols}}, {{goal}}, {{file}})"
    )]
    UnknownPlaceholder {
        /// The solver's name.
        name: String,
        /// The placeholder's name.
        placeholder: String,
    },
}

impl FromStr for Solver {
    type Err = SolverSpecError;

    fn from_str(s: &str) -> Result<Solver, SolverSpecError> {
        let (name, command) = s
            .split_once('=')
            .ok_or_else(|| SolverSpecError::NoEquals(s.to_string()))?;
        let name = name.trim();
        let ok_name = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
        if !ok_name {
            return Err(SolverSpecError::BadName(name.to_string()));
        }
        if command.trim().is_empty() {
            return Err(SolverSpecError::EmptyCommand(name.to_string()));
        }
        for placeholder in placeholders(command) {
            if !["rows", "cols", "goal", "file"].contains(&placeholder) {
                return Err(SolverSpecError::UnknownPlaceholder {
                    name: name.to_string(),
                    placeholder: placeholder.to_string(),
                });
            }
        }
        Ok(Solver {
            name: name.to_string(),
            command: command.trim().to_string(),
        })
    }
}

impl fmt::Display for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.name, self.command)
    }
}

/// The `{name}` placeholders of a command line (`{{` and `}}` are literal braces).
fn placeholders(command: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = command;
    while let Some(i) = rest.find('{') {
        if rest[i..].starts_with("{{") {
            rest = &rest[i + 2..];
            continue;
        }
        match rest[i + 1..].find('}') {
            Some(j) => {
                out.push(&rest[i + 1..i + 1 + j]);
                rest = &rest[i + 2 + j..];
            }
            None => break,
        }
    }
    out
}

/// The board as the original task's input: a JSON matrix and a newline.
pub fn board_json(board: &Board) -> String {
    let rows: Vec<String> = (0..board.rows())
        .map(|r| {
            let cells: Vec<String> = (0..board.cols())
                .map(|c| board.at(r, c).to_string())
                .collect();
            format!("[{}]", cells.join(","))
        })
        .collect();
    format!("[{}]\n", rows.join(","))
}

impl Solver {
    /// The command line for one board: placeholders replaced (shell-quoted), `{{`/`}}` as
    /// braces. `file` is where the board's JSON was written for `{file}`.
    pub fn command_for(&self, board: &Board, goal: Goal, file: &Path) -> String {
        let mut out = String::with_capacity(self.command.len());
        let mut rest = self.command.as_str();
        while let Some(i) = rest.find(['{', '}']) {
            out.push_str(&rest[..i]);
            let tail = &rest[i..];
            if tail.starts_with("{{") || tail.starts_with("}}") {
                out.push_str(&tail[..1]);
                rest = &tail[2..];
                continue;
            }
            let value = [
                ("{rows}", board.rows().to_string()),
                ("{cols}", board.cols().to_string()),
                ("{goal}", goal.name().to_string()),
                ("{file}", file.display().to_string()),
            ]
            .into_iter()
            .find(|(p, _)| tail.starts_with(p));
            match value {
                Some((p, v)) => {
                    out.push_str(&process::shell_quote(&v));
                    rest = &tail[p.len()..];
                }
                None => {
                    out.push_str(&tail[..1]);
                    rest = &tail[1..];
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// Whether the command wants the board in a file.
    pub fn wants_file(&self) -> bool {
        placeholders(&self.command).contains(&"file")
    }
}

/// A replayed solution of an external solver.
#[derive(Debug, Clone)]
pub struct Replayed {
    /// Its moves.
    pub moves: Vec<Move>,
    /// The form it came in.
    pub form: Form,
    /// The solver's own counters.
    pub counters: Counters,
}

/// One external job judged: how it ended, what explains that, and the kernel's measurements.
#[derive(Debug, Clone)]
pub struct Judged {
    /// [`Outcome::Solved`] (the answer replays to the goal), [`Outcome::Rejected`],
    /// [`Outcome::WrongAnswer`], [`Outcome::Crashed`] (a nonzero exit status or a signal
    /// without an answer: `measured.exit` and `measured.stderr_tail` say how), or the limit
    /// that stopped the process (`measured.stop`).
    pub outcome: Outcome,
    /// The solution, exactly when `outcome` is [`Outcome::Solved`].
    pub solution: Option<Replayed>,
    /// The solver's rejection ([`Outcome::Rejected`]) or what is wrong with its answer
    /// ([`Outcome::WrongAnswer`]).
    pub detail: Option<String>,
    /// Time, memory, exit.
    pub measured: Measured,
}

impl Judged {
    fn new(outcome: Outcome, measured: Measured) -> Judged {
        Judged {
            outcome,
            solution: None,
            detail: None,
            measured,
        }
    }

    fn with_detail(outcome: Outcome, detail: String, measured: Measured) -> Judged {
        Judged {
            detail: Some(detail),
            ..Judged::new(outcome, measured)
        }
    }
}

/// Runs `solver` on `board` for `goal` under `limits`, reads and replays its answer.
/// `scratch` is a directory for the `{file}` placeholder's board file.
pub fn run_solver(
    solver: &Solver,
    board: &Board,
    goal: Goal,
    limits: &ProcessLimits,
    scratch: &Path,
) -> Result<Judged, ProcessError> {
    let input = board_json(board);
    static NEXT_FILE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT_FILE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file = scratch.join(format!("npuzzle-board-{}-{n}.json", std::process::id()));
    let wrote_file = solver.wants_file();
    if wrote_file {
        std::fs::write(&file, &input).map_err(|source| ProcessError::Spawn {
            command: solver.command.clone(),
            source,
        })?;
    }
    let command = solver.command_for(board, goal, &file);
    let measured = process::run(&command, input.into_bytes(), limits);
    if wrote_file {
        let _ = std::fs::remove_file(&file);
    }
    Ok(judge(measured?, board, goal))
}

/// Judges a finished process: a stop wins, then the answer (a rejection is an answer whatever
/// the exit status), then a crash.
fn judge(m: Measured, board: &Board, goal: Goal) -> Judged {
    if let Some(stop) = m.stop {
        return Judged::new(stop, m);
    }
    let parsed = answer::parse(&String::from_utf8_lossy(&m.stdout), board);
    let crashed = m.exit != Exit::Code(0);
    let solution = match parsed {
        Ok(Answer::Rejected { message }) => {
            return Judged::with_detail(Outcome::Rejected, message, m);
        }
        _ if crashed => return Judged::new(Outcome::Crashed, m),
        Ok(Answer::Solution {
            moves,
            form,
            counters,
        }) => match answer::check(board, goal, &moves) {
            Ok(()) => Replayed {
                moves,
                form,
                counters,
            },
            Err(e) => return Judged::with_detail(Outcome::WrongAnswer, e.to_string(), m),
        },
        Err(AnswerError::Empty) if board.is_goal(goal) => Replayed {
            moves: Vec::new(),
            form: Form::MoveString,
            counters: Counters::default(),
        },
        Err(e) => return Judged::with_detail(Outcome::WrongAnswer, e.to_string(), m),
    };
    Judged {
        solution: Some(solution),
        ..Judged::new(Outcome::Solved, m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solver_specs_parse_and_refuse() {
        let s: Solver = "mine=python3 solve.py --short".parse().unwrap();
        assert_eq!(s.name, "mine");
        assert_eq!(s.command, "python3 solve.py --short");
        assert!(matches!(
            "python3 solve.py".parse::<Solver>(),
            Err(SolverSpecError::NoEquals(_))
        ));
        assert!(matches!(
            "1x=foo".parse::<Solver>(),
            Err(SolverSpecError::BadName(_))
        ));
        assert!(matches!(
            "a b=foo".parse::<Solver>(),
            Err(SolverSpecError::BadName(_))
        ));
        assert!(matches!(
            "x=  ".parse::<Solver>(),
            Err(SolverSpecError::EmptyCommand(_))
        ));
        assert!(matches!(
            "x=solve {size}".parse::<Solver>(),
            Err(SolverSpecError::UnknownPlaceholder { .. })
        ));
        // `=` inside the command is kept.
        let s: Solver = "j=node s.js --mode=a".parse().unwrap();
        assert_eq!(s.command, "node s.js --mode=a");
    }

    #[test]
    fn placeholders_are_substituted_and_quoted() {
        let board = Board::solved(3, 4, Goal::BlankFirst);
        let s: Solver = "x=solve -r {rows} -c {cols} -g {goal} {file} '{{}}'"
            .parse()
            .unwrap();
        assert!(s.wants_file());
        let cmd = s.command_for(&board, Goal::BlankFirst, Path::new("/tmp/a b.json"));
        assert_eq!(cmd, "solve -r 3 -c 4 -g blank-first '/tmp/a b.json' '{}'");
    }

    #[test]
    fn the_board_is_sent_as_the_original_tasks_json() {
        let board = Board::new(2, 3, vec![1, 2, 3, 4, 0, 5]).unwrap();
        assert_eq!(board_json(&board), "[[1,2,3],[4,0,5]]\n");
    }
}
