//! The end-of-run summary: the table `bench report` prints for the run's rows (the same
//! aggregation, [`crate::report::aggregate()`]); with `--repeat` the time spread per pair and its
//! warnings, and with two pairs or more the per-instance time comparisons
//! ([`crate::report::spread`]); then the run's own wall time and, labelled apart, the summed
//! wall time of its jobs (with several threads, or rows of earlier sessions, the jobs' times
//! add up to more than the run took).

use std::time::Duration;

use crate::infra::units::millis;
use crate::report::{self, Format};
use crate::results::Row;

/// The summary of `rows` (this run's and, after `--resume`, the earlier sessions'), of which
/// `new_rows` were written by this session in `run_wall`.
pub fn render(rows: &[Row], new_rows: usize, run_wall: Duration) -> String {
    let summaries = report::aggregate(rows, &[], None);
    let mut out = report::render(&summaries, &[], None, Format::Table);
    out.push_str(&report::spread::render(rows, None));
    let job_ms: f64 = rows.iter().map(|r| r.wall_ms).sum();
    out.push_str(&format!(
        "run wall time {} ({new_rows} job(s) run now); summed job time {} over {} row(s)\n",
        time(millis(run_wall)),
        time(job_ms),
        rows.len()
    ));
    out
}

fn time(ms: f64) -> String {
    if ms >= 10_000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else {
        format!("{ms:.2} ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Outcome;

    fn row(id: &str, alg: &str, status: Outcome, moves: Option<u32>, wall: f64) -> Row {
        Row {
            run_id: "r".into(),
            instance_file: "f".into(),
            instance_id: id.into(),
            rows: 3,
            cols: 3,
            goal: crate::board::Goal::BlankLast,
            scramble_moves: None,
            algorithm: alg.into(),
            heuristic: "manhattan".into(),
            repetition: 1,
            status,
            moves,
            lower_bound: None,
            optimal: Some(true),
            known_optimal: None,
            suboptimal: None,
            nodes_expanded: Some(10),
            nodes_generated: Some(20),
            iterations: None,
            peak_stored_nodes: Some(1),
            peak_heap_bytes: Some(2048),
            peak_rss_bytes: None,
            wall_ms: wall,
            search_ms: None,
            cpu_ms: None,
            user_ms: None,
            sys_ms: None,
            setup_ms: None,
            initial_h: None,
            measured_by: None,
            message: None,
            solution: None,
        }
    }

    #[test]
    fn the_report_table_then_run_time_and_summed_job_time_apart() {
        let rows = [
            row("1", "astar", Outcome::Solved, Some(4), 1.0),
            row("1", "idastar", Outcome::Solved, Some(4), 2.0),
            row("2", "astar", Outcome::Timeout, None, 60_000.0),
            row("3", "astar", Outcome::DepthLimit, None, 3.0),
        ];
        let text = render(&rows, 3, Duration::from_millis(1500));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 7, "{text}");
        assert!(
            lines[0].starts_with("algorithm  heuristic  solved"),
            "{text}"
        );
        assert!(lines[1].starts_with("-----"), "{text}");
        assert!(
            lines[2].starts_with("astar      manhattan     1/3"),
            "{text}"
        );
        assert!(
            lines[3].starts_with("idastar    manhattan     1/1"),
            "{text}"
        );
        // The depth-limit row is counted in its own column, next to the other limits.
        assert!(
            lines[2].ends_with("1           0          0            1      0"),
            "{text}"
        );
        // One comparison: astar solved as many instances as idastar (1), faster by median.
        assert_eq!(
            lines[4],
            "time, per instance (repetitions averaged), against astar/manhattan (the pair that \
             solved the most instances, fastest by median):"
        );
        assert!(
            lines[5].starts_with(
                "  astar/manhattan is 2.00 times faster than idastar/manhattan on the 1 instance(s)"
            ),
            "{text}"
        );
        // 1 + 2 + 60000 + 3 ms summed; the run itself took 1.5 s.
        assert_eq!(
            lines[6],
            "run wall time 1500.00 ms (3 job(s) run now); summed job time 60.0 s over 4 row(s)"
        );
    }
}
