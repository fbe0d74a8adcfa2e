//! `scripts/cluster-plan.py`: the per-instance estimate (iterations before the last plus a
//! fraction of the last) and the spread of cores over instances, checked against sums done by
//! hand and against every possible spread of a few cores (the best longest wall time).

use std::path::Path;
use std::process::Command;

const HEADER: &str = "rows,cols,goal,heuristic,tree,method,instance_id,bound,scope,\
predicted_expanded,predicted_generated,generated_se,distribution,samples,probes,seed,measured_generated";

/// A `bench predict --method ss` CSV: instance 1 (bounds 10, 12: 100 and 1000 nodes), 2 (50 and
/// 3000), 3 (one iteration of 10); a plain-tree row that must be ignored.
fn predict_csv(dir: &Path) -> std::path::PathBuf {
    let rows = [
        "5,5,blank-first,pdb,fsm,ss,1,10,iteration,1,100,0,,,50,1,",
        "5,5,blank-first,pdb,fsm,ss,1,12,iteration,1,1000,0,,,50,1,",
        "5,5,blank-first,pdb,fsm,ss,2,10,iteration,1,50,0,,,50,1,",
        "5,5,blank-first,pdb,fsm,ss,2,12,iteration,1,3000,0,,,50,1,",
        "5,5,blank-first,pdb,fsm,ss,3,11,iteration,1,10,0,,,50,1,",
        "5,5,blank-first,pdb,plain,ss,3,11,iteration,1,99999,0,,,50,1,",
        "5,5,blank-first,pdb,fsm,ss,3,11,total,1,10,0,,,50,1,",
    ];
    let path = dir.join("predict.csv");
    std::fs::write(&path, format!("{HEADER}\n{}\n", rows.join("\n"))).unwrap();
    path
}

fn plan(csv: &Path, cores: &str) -> std::process::Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/cluster-plan.py");
    // One CPU hour per predicted node, so the table's hours are the node counts.
    Command::new("python3")
        .arg(script)
        .arg(csv)
        .args(["--rate", &(1.0f64 / 3600.0).to_string(), "--cores", cores])
        .args(["--overhead", "1.1", "--imbalance", "1.5"])
        .output()
        .expect("python3 runs")
}

/// The table's rows: id -> the cells after the id.
fn table(stdout: &str) -> Vec<Vec<String>> {
    stdout
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| id"))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

fn wall(cpu: f64, pieces: u32) -> f64 {
    if pieces == 1 {
        cpu
    } else {
        cpu * 1.1 * 1.5 / f64::from(pieces)
    }
}

#[test]
fn estimates_and_a_feasible_schedule_no_worse_than_the_best_spread() {
    let dir = tempfile::tempdir().unwrap();
    let csv = predict_csv(dir.path());
    let out = plan(&csv, "9");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = table(&String::from_utf8_lossy(&out.stdout));
    // Estimates by hand: 100 + 1000 / 2, 50 + 3000 / 2, 10 / 2.
    let cpu = [600.0, 1550.0, 5.0];
    assert_eq!(rows.len(), 3);
    for (row, want) in rows.iter().zip(cpu) {
        let got: f64 = row[2].parse().unwrap();
        assert!(
            (got - want).abs() < 1e-6 * want,
            "estimate {got} != {want}: {row:?}"
        );
    }
    // Columns: id, optimal, predicted, measured, ratio, CPU h, pieces, start h, end h on 9.
    let cell = |r: &Vec<String>, k: usize| -> f64 { r[k].parse().unwrap() };
    let mut events = Vec::new();
    let mut span: f64 = 0.0;
    for (row, c) in rows.iter().zip(cpu) {
        let (pieces, start, end) = (cell(row, 6) as u32, cell(row, 7), cell(row, 8));
        assert!((end - start - wall(c, pieces)).abs() < 1e-3, "{row:?}");
        events.push((start, i64::from(pieces)));
        events.push((end, -i64::from(pieces)));
        span = span.max(end);
    }
    // Never more than the 9 cores at once (ends before starts at the same time).
    events.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let mut busy = 0;
    for (_, d) in events {
        busy += d;
        assert!(busy <= 9, "more than 9 cores busy");
    }
    // No later than the best plan that starts everything at once, found by trying every spread.
    let mut best = f64::INFINITY;
    for a in 1..=7u32 {
        for b in 1..=(8 - a) {
            let c = 9 - a - b;
            best = best.min(wall(cpu[0], a).max(wall(cpu[1], b)).max(wall(cpu[2], c)));
        }
    }
    assert!(
        span <= best + 1e-3,
        "ends at {span}, the best all-at-once spread at {best}"
    );
}

#[test]
fn fewer_cores_than_instances_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = plan(&predict_csv(dir.path()), "2");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--cores 2") && err.contains("3"), "{err}");
}

#[test]
fn commands_follow_the_plan() {
    let dir = tempfile::tempdir().unwrap();
    let csv = predict_csv(dir.path());
    let table_out = plan(&csv, "9");
    let rows = table(&String::from_utf8_lossy(&table_out.stdout));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/cluster-plan.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(&csv)
        .args(["--rate", &(1.0f64 / 3600.0).to_string()])
        .args(["--overhead", "1.1", "--imbalance", "1.5"])
        .args([
            "--commands",
            "9",
            "--instances",
            "k.tsv",
            "--out-root",
            "runs",
        ])
        .args(["--solve-args", "--algos idastar-fsm"])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 3, "{text}");
    for row in &rows {
        let want = format!(
            "scripts/slurm-solve.sh --instances k.tsv --id {} --pieces {} --frontier 4000 \
             --out runs/{} --no-wait --algos idastar-fsm",
            row[0], row[6], row[0]
        );
        assert!(text.lines().any(|l| l == want), "{want} not in\n{text}");
    }
}
