//! Reading what an external solver printed, and checking it.
//!
//! A solver answers one board in any of the forms our users' solvers already speak
//! (docs/external-solvers.md): the original task's boards from the start to the goal, its
//! `--short` blank positions (1-based, comma-separated), a `U`/`D`/`L`/`R` move string (the
//! direction the blank travels), or one JSON object like `bench solve --format json` prints.
//! The original task's rejection, `{"message": ...}`, is an answer too. Whatever the form, the
//! answer becomes a list of moves, and [`check`] replays it on the start board: an answer is
//! only ever reported as a solution after that replay reached the goal.

use serde_json::Value;
use thiserror::Error;

use crate::board::{Board, Goal, Move};

/// What a solver said about one board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A claimed solution (not yet checked: see [`check`]).
    Solution {
        /// The moves of the blank.
        moves: Vec<Move>,
        /// The form the solver answered in.
        form: Form,
        /// Counters the solver reported about its own search (JSON answers only).
        counters: Counters,
    },
    /// The solver refused the board, with its message (the original task's error object).
    Rejected {
        /// The `message` field.
        message: String,
    },
}

/// The form of a solution answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Boards from the start to the goal (the original task's default output).
    Boards,
    /// Blank positions, 1-based and comma-separated (the original task's `--short`).
    BlankPositions,
    /// A `U`/`D`/`L`/`R` string.
    MoveString,
    /// A JSON object with `moves` or `blank_positions`.
    Json,
}

impl Form {
    /// The name used in messages.
    pub fn name(self) -> &'static str {
        match self {
            Form::Boards => "boards",
            Form::BlankPositions => "blank positions",
            Form::MoveString => "move string",
            Form::Json => "JSON",
        }
    }
}

/// Search counters a solver may report in a JSON answer; they go into the results' columns
/// as the solver's own claims (we cannot check them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    /// `nodes_expanded`.
    pub nodes_expanded: Option<u64>,
    /// `nodes_generated`.
    pub nodes_generated: Option<u64>,
    /// `peak_stored_nodes`.
    pub peak_stored_nodes: Option<u64>,
}

/// Why an answer is not a solution of its board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AnswerError {
    /// Nothing on stdout (and the board was not already solved).
    #[error("the solver printed nothing on stdout")]
    Empty,
    /// The output is in none of the accepted forms.
    #[error("unreadable answer (line {line}): {detail}")]
    Unreadable {
        /// 1-based line of stdout.
        line: usize,
        /// What is wrong there.
        detail: String,
    },
    /// The answer does not start from the board it was given.
    #[error("the answer's first {what} is not the start board's ({detail})")]
    WrongStart {
        /// `board` or `blank position`.
        what: &'static str,
        /// What differs.
        detail: String,
    },
    /// Step `step` is not one legal move.
    #[error("step {step} of the {form} answer is not a legal move: {detail}")]
    IllegalMove {
        /// 1-based move number.
        step: usize,
        /// The answer's form.
        form: &'static str,
        /// Why.
        detail: String,
    },
    /// All moves are legal but the last board is not the goal.
    #[error("the answer's {length} moves end on a board that is not the {goal} goal")]
    NotSolved {
        /// Number of moves.
        length: usize,
        /// The goal's name.
        goal: &'static str,
    },
}

/// Reads a solver's stdout as an answer for `start`. The moves are derived from the answer's
/// form (boards or blank positions are checked step by step on the way); [`check`] must still
/// replay them to the goal.
pub fn parse(stdout: &str, start: &Board) -> Result<Answer, AnswerError> {
    let text = stdout.trim();
    if text.is_empty() {
        return Err(AnswerError::Empty);
    }
    if text.starts_with('{') {
        return parse_json(text, start);
    }
    let first = text.lines().next().unwrap_or("").trim();
    if first.chars().all(|c| "UDLRudlr".contains(c)) && text.lines().count() == 1 {
        let moves = first.chars().filter_map(Move::from_letter).collect();
        return Ok(solution(moves, Form::MoveString, Counters::default()));
    }
    if text.lines().count() == 1 && first.contains(',') || is_single_number(first, text) {
        let positions = parse_positions(first)?;
        let moves = moves_from_positions(&positions, start, Form::BlankPositions)?;
        return Ok(solution(moves, Form::BlankPositions, Counters::default()));
    }
    let moves = moves_from_boards(text, start)?;
    Ok(solution(moves, Form::Boards, Counters::default()))
}

/// Replays `moves` on `start`: `Ok` only if every move is legal and the last board is `goal`.
pub fn check(start: &Board, goal: Goal, moves: &[Move]) -> Result<(), AnswerError> {
    let mut board = start.clone();
    for (i, &m) in moves.iter().enumerate() {
        if !board.apply(m) {
            return Err(AnswerError::IllegalMove {
                step: i + 1,
                form: "replayed",
                detail: format!(
                    "{} moves the blank off the board from cell {}",
                    m.letter(),
                    board.blank() + 1
                ),
            });
        }
    }
    if board.is_goal(goal) {
        Ok(())
    } else {
        Err(AnswerError::NotSolved {
            length: moves.len(),
            goal: goal.name(),
        })
    }
}

fn solution(moves: Vec<Move>, form: Form, counters: Counters) -> Answer {
    Answer::Solution {
        moves,
        form,
        counters,
    }
}

/// A one-line answer that is a single number: the `--short` answer for a board that is
/// already solved.
fn is_single_number(first: &str, text: &str) -> bool {
    text.lines().count() == 1 && !first.is_empty() && first.chars().all(|c| c.is_ascii_digit())
}

fn parse_positions(line: &str) -> Result<Vec<usize>, AnswerError> {
    line.split(',')
        .enumerate()
        .map(|(i, s)| {
            s.trim()
                .parse::<usize>()
                .map_err(|_| AnswerError::Unreadable {
                    line: 1,
                    detail: format!(
                        "blank position {} is {:?}, expected a positive integer",
                        i + 1,
                        s.trim()
                    ),
                })
        })
        .collect()
}

/// The moves between consecutive 1-based blank positions, the first being the start's.
fn moves_from_positions(
    positions: &[usize],
    start: &Board,
    form: Form,
) -> Result<Vec<Move>, AnswerError> {
    let (rows, cols) = (start.rows(), start.cols());
    let Some((&first, rest)) = positions.split_first() else {
        return Err(AnswerError::Empty);
    };
    if first != start.blank() + 1 {
        return Err(AnswerError::WrongStart {
            what: "blank position",
            detail: format!("{first}, the start's blank is at {}", start.blank() + 1),
        });
    }
    let mut at = start.blank();
    let mut moves = Vec::with_capacity(rest.len());
    for (i, &p) in rest.iter().enumerate() {
        let step = Move::KORF_ORDER
            .into_iter()
            .find(|m| p >= 1 && m.target(at, rows, cols) == Some(p - 1));
        let Some(m) = step else {
            return Err(AnswerError::IllegalMove {
                step: i + 1,
                form: form.name(),
                detail: format!(
                    "the blank cannot go from {} to {p} in one move on a {rows} x {cols} board",
                    at + 1
                ),
            });
        };
        moves.push(m);
        at = p - 1;
    }
    Ok(moves)
}

/// Boards as rows of whitespace-separated numbers, blank lines between boards optional.
fn moves_from_boards(text: &str, start: &Board) -> Result<Vec<Move>, AnswerError> {
    let (rows, cols) = (start.rows(), start.cols());
    let mut boards: Vec<Vec<u32>> = Vec::new();
    let mut current: Vec<u32> = Vec::with_capacity(start.cells());
    let mut rows_in_current = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            if rows_in_current != 0 {
                return Err(AnswerError::Unreadable {
                    line: i + 1,
                    detail: format!(
                        "a board ended after {rows_in_current} rows, expected {rows} rows of {cols}"
                    ),
                });
            }
            continue;
        }
        let mut n = 0;
        for word in line.split(|c: char| c.is_whitespace() || c == ',') {
            if word.is_empty() {
                continue;
            }
            let v = word.parse::<u32>().map_err(|_| AnswerError::Unreadable {
                line: i + 1,
                detail: format!(
                    "{word:?} is not a tile number (expected boards, blank positions, a \
                     U/D/L/R string or a JSON object)"
                ),
            })?;
            current.push(v);
            n += 1;
        }
        if n != cols {
            return Err(AnswerError::Unreadable {
                line: i + 1,
                detail: format!("a board row has {n} numbers, expected {cols}"),
            });
        }
        rows_in_current += 1;
        if rows_in_current == rows {
            boards.push(std::mem::replace(
                &mut current,
                Vec::with_capacity(start.cells()),
            ));
            rows_in_current = 0;
        }
    }
    if rows_in_current != 0 {
        return Err(AnswerError::Unreadable {
            line: text.lines().count(),
            detail: format!(
                "the last board has {rows_in_current} rows, expected {rows} rows of {cols}"
            ),
        });
    }
    let Some((first, rest)) = boards.split_first() else {
        return Err(AnswerError::Empty);
    };
    if first.as_slice() != start.tiles() {
        return Err(AnswerError::WrongStart {
            what: "board",
            detail: "the tiles differ".into(),
        });
    }
    let mut board = start.clone();
    let mut moves = Vec::with_capacity(rest.len());
    for (i, next) in rest.iter().enumerate() {
        let step = board
            .legal_moves()
            .find(|&m| board.moved(m).is_some_and(|b| b.tiles() == next.as_slice()));
        let Some(m) = step else {
            return Err(AnswerError::IllegalMove {
                step: i + 1,
                form: Form::Boards.name(),
                detail: format!("board {} is not one move away from board {}", i + 2, i + 1),
            });
        };
        board.apply(m);
        moves.push(m);
    }
    Ok(moves)
}

fn parse_json(text: &str, start: &Board) -> Result<Answer, AnswerError> {
    let value: Value = serde_json::from_str(text).map_err(|e| AnswerError::Unreadable {
        line: e.line(),
        detail: format!("invalid JSON: {e}"),
    })?;
    let Value::Object(obj) = value else {
        unreachable!("text starts with '{{'");
    };
    let counter = |key: &str| obj.get(key).and_then(Value::as_u64);
    let counters = Counters {
        nodes_expanded: counter("nodes_expanded"),
        nodes_generated: counter("nodes_generated"),
        peak_stored_nodes: counter("peak_stored_nodes"),
    };
    match (
        obj.get("moves"),
        obj.get("blank_positions"),
        obj.get("message"),
    ) {
        (Some(Value::String(s)), _, _) => {
            let moves = s
                .chars()
                .enumerate()
                .map(|(i, c)| {
                    Move::from_letter(c).ok_or_else(|| AnswerError::Unreadable {
                        line: 1,
                        detail: format!("\"moves\" has {c:?} at {}, expected U, D, L or R", i + 1),
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(solution(moves, Form::Json, counters))
        }
        (None, Some(Value::Array(ps)), _) => {
            let positions = ps
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    p.as_u64()
                        .map(|p| p as usize)
                        .ok_or_else(|| AnswerError::Unreadable {
                            line: 1,
                            detail: format!(
                                "\"blank_positions\"[{i}] is {p}, expected a positive integer"
                            ),
                        })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let moves = moves_from_positions(&positions, start, Form::Json)?;
            Ok(solution(moves, Form::Json, counters))
        }
        (None, None, Some(Value::String(m))) => Ok(Answer::Rejected { message: m.clone() }),
        _ => Err(AnswerError::Unreadable {
            line: 1,
            detail: "a JSON answer needs \"moves\" (a U/D/L/R string), \"blank_positions\" or \
                     \"message\" (a rejection)"
                .into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: usize, cols: usize, tiles: &[u32]) -> Board {
        Board::new(rows, cols, tiles.to_vec()).unwrap()
    }

    /// 1 2 3 / 4 5 6 / 0 7 8: two moves right reach the blank-last goal.
    fn two_moves() -> Board {
        board(3, 3, &[1, 2, 3, 4, 5, 6, 0, 7, 8])
    }

    fn moves_of(a: Answer) -> Vec<Move> {
        match a {
            Answer::Solution { moves, .. } => moves,
            Answer::Rejected { message } => panic!("rejected: {message}"),
        }
    }

    #[test]
    fn every_form_gives_the_same_moves() {
        let b = two_moves();
        let want = vec![Move::Right, Move::Right];
        let forms = [
            "1 2 3\n4 5 6\n0 7 8\n\n1 2 3\n4 5 6\n7 0 8\n\n1 2 3\n4 5 6\n7 8 0\n",
            "1 2 3\n4 5 6\n0 7 8\n1 2 3\n4 5 6\n7 0 8\n1 2 3\n4 5 6\n7 8 0",
            "7,8,9\n",
            "RR\n",
            "{\"moves\":\"RR\",\"nodes_generated\":12}",
            "{\"blank_positions\":[7,8,9]}",
        ];
        for f in forms {
            let a = parse(f, &b).unwrap_or_else(|e| panic!("{f:?}: {e}"));
            let moves = moves_of(a);
            assert_eq!(moves, want, "{f:?}");
            check(&b, Goal::BlankLast, &moves).unwrap();
        }
    }

    #[test]
    fn json_counters_and_rejections_are_read() {
        let b = two_moves();
        let a = parse(
            "{\"moves\":\"RR\",\"nodes_expanded\":3,\"nodes_generated\":5}",
            &b,
        );
        let Ok(Answer::Solution { counters, .. }) = a else {
            panic!("{a:?}")
        };
        assert_eq!(counters.nodes_expanded, Some(3));
        assert_eq!(counters.nodes_generated, Some(5));
        let r = parse("{\"message\": \"Некорректный формат входных данных\"}", &b);
        assert_eq!(
            r,
            Ok(Answer::Rejected {
                message: "Некорректный формат входных данных".into()
            })
        );
    }

    #[test]
    fn wrong_answers_are_named() {
        let b = two_moves();
        assert_eq!(parse("  \n", &b), Err(AnswerError::Empty));
        // Legal but not solving.
        let m = moves_of(parse("R", &b).unwrap());
        assert!(matches!(
            check(&b, Goal::BlankLast, &m),
            Err(AnswerError::NotSolved { length: 1, .. })
        ));
        // Off the board: the blank is in the bottom row.
        let m = moves_of(parse("D", &b).unwrap());
        assert!(matches!(
            check(&b, Goal::BlankLast, &m),
            Err(AnswerError::IllegalMove { step: 1, .. })
        ));
        // A jump of the blank.
        assert!(matches!(
            parse("7,9", &b),
            Err(AnswerError::IllegalMove { step: 1, .. })
        ));
        // Another start.
        assert!(matches!(
            parse("8,9", &b),
            Err(AnswerError::WrongStart { .. })
        ));
        assert!(matches!(
            parse("1 2 3\n4 5 6\n7 0 8\n\n1 2 3\n4 5 6\n7 8 0", &b),
            Err(AnswerError::WrongStart { .. })
        ));
        // Two tiles swapped between boards.
        assert!(matches!(
            parse("1 2 3\n4 5 6\n0 7 8\n\n2 1 3\n4 5 6\n0 7 8", &b),
            Err(AnswerError::IllegalMove { step: 1, .. })
        ));
        // Garbage and half boards.
        assert!(matches!(
            parse("Segmentation fault", &b),
            Err(AnswerError::Unreadable { .. })
        ));
        assert!(matches!(
            parse("1 2 3\n4 5 6\n", &b),
            Err(AnswerError::Unreadable { .. })
        ));
        assert!(matches!(
            parse("{\"moves\": 3}", &b),
            Err(AnswerError::Unreadable { .. })
        ));
        assert!(matches!(
            parse("{\"moves\": \"RX\"}", &b),
            Err(AnswerError::Unreadable { .. })
        ));
        assert!(matches!(
            parse("{not json", &b),
            Err(AnswerError::Unreadable { .. })
        ));
    }

    #[test]
    fn a_solved_board_has_one_position() {
        let b = Board::solved(3, 3, Goal::BlankLast);
        assert_eq!(moves_of(parse("9\n", &b).unwrap()), vec![]);
        let b = Board::solved(3, 3, Goal::BlankFirst);
        assert_eq!(moves_of(parse("1", &b).unwrap()), vec![]);
        assert_eq!(
            moves_of(parse("0 1 2\n3 4 5\n6 7 8\n", &b).unwrap()),
            vec![]
        );
    }
}
