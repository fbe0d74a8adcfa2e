//! `bench report` beyond the summary: `--pivot depth` against values worked out by hand from
//! a fixture, `--by file` and the warnings about pooled sizes and files, the compact and full
//! column sets, LaTeX output and its escaping, and the figures in SVG, PNG and PDF.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use npuzzle::report::load_files;
use npuzzle::report::pivot::{PivotValue, pivot};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/report")
        .join(name)
}

fn bench() -> Command {
    Command::cargo_bin("bench").expect("bench binary")
}

/// Runs `bench report ARGS`, expecting success; returns (stdout, stderr).
fn report(args: &[&str]) -> (String, String) {
    let out = bench().arg("report").args(args).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    (String::from_utf8(out.stdout).unwrap(), stderr)
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

// The fixture pivot.csv: five 3 x 3 instances with optimal lengths 2, 2, 4, 4, 6.
// astar/manhattan solves all: expanded 2, 4, 10, 20, 100; wall ms 0.01, 0.03, 0.1, 0.2, 1.
// idastar/manhattan solves the first four: expanded 4, 4, 40, 80; wall ms 0.005, 0.01, 0.05,
// 0.1; it times out on instance 5.

#[test]
fn pivot_cells_are_the_hand_computed_means() {
    let rows = load_files(&[fixture("pivot.csv")]).unwrap().rows;
    let p = pivot(&rows, &[], PivotValue::Expanded);
    assert_eq!(p.columns, ["astar/manhattan", "idastar/manhattan"]);
    let got: Vec<(String, usize, Vec<Option<f64>>)> = p
        .rows
        .iter()
        .map(|(d, n, cells)| {
            (
                d.to_string(),
                *n,
                cells.iter().map(|c| c.unwrap().value).collect(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("2".to_string(), 2, vec![Some(3.0), Some(4.0)]),
            ("4".to_string(), 2, vec![Some(15.0), Some(60.0)]),
            // idastar's timeout belongs to depth 6 (astar solved it in 6): nothing solved.
            ("6".to_string(), 1, vec![Some(100.0), None]),
        ]
    );
    let ida6 = p.rows[2].2[1].unwrap();
    assert_eq!((ida6.solved, ida6.runs), (0, 1));
    let ms = pivot(&rows, &[], PivotValue::Ms);
    let close = |a: Option<f64>, b: f64| (a.unwrap() - b).abs() < 1e-12;
    assert!(close(ms.rows[0].2[0].unwrap().value, 0.02));
    assert!(close(ms.rows[0].2[1].unwrap().value, 0.0075));
    assert!(close(ms.rows[1].2[1].unwrap().value, 0.075));
    assert!(close(ms.rows[2].2[0].unwrap().value, 1.0));
}

#[test]
fn pivot_in_every_text_format() {
    let f = fixture("pivot.csv");
    let (text, _) = report(&[path(&f), "--pivot", "depth"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["depth", "instances", "astar/manhattan", "idastar/manhattan"]
    );
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        ["2", "2", "3", "4"]
    );
    assert_eq!(
        lines[3].split_whitespace().collect::<Vec<_>>(),
        ["4", "2", "15", "60"]
    );
    assert_eq!(
        lines[4].split_whitespace().collect::<Vec<_>>(),
        ["6", "1", "100", "-"]
    );
    assert!(text.contains("mean nodes expanded"), "{text}");

    let (md, _) = report(&[
        path(&f),
        "--pivot",
        "depth",
        "--pivot-value",
        "ms",
        "--format",
        "markdown",
    ]);
    let row: Vec<&str> = md
        .lines()
        .nth(3)
        .unwrap()
        .split('|')
        .map(str::trim)
        .collect();
    assert_eq!(row, ["", "4", "2", "0.150", "0.075", ""], "{md}");

    let (csv_text, _) = report(&[
        path(&f),
        "--pivot",
        "depth",
        "--pivot-value",
        "generated",
        "--format",
        "csv",
    ]);
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let head: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        head,
        [
            "depth",
            "instances",
            "astar/manhattan",
            "idastar/manhattan",
            "astar/manhattan solved",
            "astar/manhattan runs",
            "idastar/manhattan solved",
            "idastar/manhattan runs"
        ]
    );
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    // Generated at depth 4: astar (20 + 40) / 2, idastar (80 + 160) / 2.
    assert_eq!(
        &rows[1].iter().collect::<Vec<_>>(),
        &["4", "2", "30", "120", "2", "2", "2", "2"]
    );
    assert_eq!(
        &rows[2].iter().collect::<Vec<_>>(),
        &["6", "1", "200", "", "1", "1", "0", "1"]
    );

    let (tex, _) = report(&[path(&f), "--pivot", "depth", "--format", "latex"]);
    assert!(tex.contains("\\begin{tabular}{lrrr}"), "{tex}");
    assert!(
        tex.contains("depth & instances & astar/manhattan & idastar/manhattan \\\\"),
        "{tex}"
    );
    assert!(tex.contains("\n6 & 1 & 100 & - \\\\\n"), "{tex}");
}

#[test]
fn pivot_marks_cells_with_unsolved_runs_and_splits_by_size() {
    // The fixture's 3 x 3 rows plus the same rows as 2 x 4 boards of another file, where
    // astar times out at depth 2 on instance 1.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("pivot.csv")).unwrap();
    let other: String = text
        .lines()
        .skip(1)
        .map(|l| {
            let l = l
                .replace(",p.txt,", ",q.txt,")
                .replace(",3,3,blank-last,", ",2,4,blank-last,");
            if l.starts_with("r2,q.txt,1,2,4,blank-last,2,astar") {
                l.replace(",solved,2,", ",timeout,,")
            } else {
                l
            }
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let both = dir.path().join("both.csv");
    std::fs::write(&both, format!("{text}{other}")).unwrap();
    let (out, err) = report(&[path(&both), "--pivot", "depth", "--by", "size"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        [
            "depth",
            "instances",
            "2x4",
            "astar/manhattan",
            "2x4",
            "idastar/manhattan",
            "3x3",
            "astar/manhattan",
            "3x3",
            "idastar/manhattan"
        ]
    );
    // Depth 2: 4 instances; 2x4 astar solved one of two (4 nodes), marked.
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        ["2", "4", "4*", "4", "3", "4"]
    );
    assert!(out.contains("* not every run"), "{out}");
    // Split by size, nothing is pooled across sizes; the files still are not (one per size).
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn pooled_sizes_and_files_are_named_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let b = std::fs::read_to_string(fixture("shard_b.csv"))
        .unwrap()
        .replace(",fix.txt,", ",fix24.txt,")
        .replace(",3,3,blank-last,", ",2,4,blank-last,");
    let b_path = dir.path().join("b24.csv");
    std::fs::write(&b_path, b).unwrap();
    let a = fixture("shard_a.csv");
    let (_, err) = report(&[path(&a), path(&b_path)]);
    // Only idastar/manhattan has rows in both files.
    assert!(
        err.contains(
            "warning: idastar/manhattan pools boards of sizes 2x4, 3x3 in one line; --by size"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "note: idastar/manhattan pools 2 instance files (fix.txt, fix24.txt); --by file"
        ),
        "{err}"
    );
    // Besides the totals per file (run time and summed job time), exactly those two lines.
    let pooling = |err: &str| {
        err.lines()
            .filter(|l| l.starts_with("warning:") || l.starts_with("note:"))
            .count()
    };
    assert_eq!(pooling(&err), 2, "{err}");
    let (out, err) = report(&[path(&a), path(&b_path), "--by", "file", "--format", "csv"]);
    assert_eq!(pooling(&err), 0, "{err}");
    let mut r = csv::Reader::from_reader(out.as_bytes());
    let rows: Vec<(String, String, String)> = r
        .records()
        .map(|x| {
            let x = x.unwrap();
            (x[0].to_string(), x[1].to_string(), x[3].to_string())
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("fix.txt".into(), "astar".into(), "3".into()),
            ("fix.txt".into(), "idastar".into(), "2".into()),
            ("fix24.txt".into(), "astar".into(), "1".into()),
            ("fix24.txt".into(), "idastar".into(), "1".into()),
        ]
    );
    // --by size separates the sizes but not the files of one size: no warning.
    let (_, err) = report(&[path(&a), path(&b_path), "--by", "size"]);
    assert_eq!(pooling(&err), 0, "{err}");
}

#[test]
fn compact_columns_by_default_all_on_request() {
    let (a, b) = (fixture("shard_a.csv"), fixture("shard_b.csv"));
    let (compact, _) = report(&[path(&a), path(&b), "--baseline", "idastar/manhattan"]);
    let head = compact.lines().next().unwrap();
    assert_eq!(
        head.split("  ")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>(),
        [
            "algorithm",
            "heuristic",
            "solved",
            "moves mean",
            "expanded mean",
            "expanded median",
            "b*",
            "ms mean",
            "ms median",
            "heap max",
            // The fixture has timeouts, a memory limit and errors: their columns show; the
            // stop reasons no row has (node, depth limit) stay out.
            "timeout",
            "mem-limit",
            "error",
            "nodes vs base",
            "time vs base"
        ]
    );
    assert!(
        // The table itself; the spread and comparison sentences below it are prose.
        compact
            .lines()
            .take_while(|l| !l.starts_with("time "))
            .all(|l| l.chars().count() <= 170),
        "{compact}"
    );
    let (all, _) = report(&[path(&a), path(&b), "--columns", "all"]);
    let head = all.lines().next().unwrap();
    for c in [
        "generated max",
        "Mnodes/s",
        "timeout",
        "depth-limit",
        "error",
    ] {
        assert!(head.contains(c), "{head}");
    }
    // CSV keeps every column unless asked.
    let (csv_all, _) = report(&[path(&a), "--format", "csv"]);
    assert!(csv_all.lines().next().unwrap().contains("memory_limit"));
    let (csv_compact, _) = report(&[path(&a), "--format", "csv", "--columns", "compact"]);
    assert!(!csv_compact.lines().next().unwrap().contains("memory_limit"));
}

#[test]
fn latex_is_booktabs_with_special_characters_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("shard_a.csv"))
        .unwrap()
        .replace(",fix.txt,", ",a_b%c&d#1.txt,");
    let f = dir.path().join("odd.csv");
    std::fs::write(&f, text).unwrap();
    let (tex, _) = report(&[
        path(&f),
        "--by",
        "file",
        "--format",
        "latex",
        "--columns",
        "all",
    ]);
    let lines: Vec<&str> = tex.lines().collect();
    let begin = lines
        .iter()
        .position(|l| l.starts_with("\\begin{tabular}"))
        .unwrap();
    assert_eq!(lines[begin + 1], "\\toprule");
    assert_eq!(lines[begin + 3], "\\midrule");
    assert_eq!(lines[lines.len() - 2], "\\bottomrule");
    assert_eq!(lines[lines.len() - 1], "\\end{tabular}");
    // Column spec: file, algorithm, heuristic left; 21 numeric columns right.
    assert_eq!(
        lines[begin],
        format!("\\begin{{tabular}}{{lll{}}}", "r".repeat(21))
    );
    let head = lines[begin + 2];
    assert!(
        head.contains("$b^*$") && head.contains("Mnodes/s"),
        "{head}"
    );
    let body = &lines[begin + 4..lines.len() - 2];
    assert_eq!(body.len(), 2);
    for row in body {
        assert!(row.starts_with("a\\_b\\%c\\&d\\#1.txt & "), "{row}");
        assert!(row.ends_with(" \\\\"), "{row}");
        // 24 cells: 23 unescaped separators.
        let separators = row.matches(" & ").count();
        assert_eq!(separators, 23, "{row}");
    }
}

fn png_pixels(bytes: &[u8]) -> (u32, u32, Vec<[u8; 4]>) {
    let p = resvg::tiny_skia::Pixmap::decode_png(bytes).unwrap();
    let px = p
        .data()
        .chunks(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect();
    (p.width(), p.height(), px)
}

#[test]
fn figures_in_svg_png_and_pdf() {
    let dir = tempfile::tempdir().unwrap();
    let plots = dir.path().join("figs");
    let (a, b) = (fixture("shard_a.csv"), fixture("shard_b.csv"));
    let (_, err) = report(&[
        path(&a),
        path(&b),
        "--plots",
        path(&plots),
        "--plot-format",
        "svg,png,pdf",
    ]);
    for stem in [
        "nodes_vs_length",
        "time_cdf",
        "memory_vs_length",
        "bstar_by_depth",
    ] {
        for ext in ["svg", "png", "pdf"] {
            let p = plots.join(format!("{stem}.{ext}"));
            assert!(err.contains(&format!("wrote {}", p.display())), "{err}");
        }
        let png = std::fs::read(plots.join(format!("{stem}.png"))).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let (w, h, px) = png_pixels(&png);
        assert_eq!((w, h), (1920, 1200));
        // Not blank: a good share of non-white pixels, and the series' colours are there.
        let ink = px.iter().filter(|p| p[..3] != [255, 255, 255]).count();
        assert!(ink > px.len() / 200, "{stem}: {ink} of {}", px.len());
        // Tableau blue (31, 119, 180), the first series.
        assert!(
            px.iter().any(|p| (i32::from(p[0]) - 31).abs() < 8
                && (i32::from(p[1]) - 119).abs() < 8
                && (i32::from(p[2]) - 180).abs() < 8),
            "{stem}: no first-series colour"
        );
        let pdf = std::fs::read(plots.join(format!("{stem}.pdf"))).unwrap();
        assert!(pdf.starts_with(b"%PDF-1."), "{stem}");
        assert!(pdf.len() > 1000, "{stem}: {} bytes", pdf.len());
        let tail = String::from_utf8_lossy(&pdf[pdf.len() - 32..]).to_string();
        assert!(tail.contains("%%EOF"), "{stem}: {tail}");
        let svg = std::fs::read_to_string(plots.join(format!("{stem}.svg"))).unwrap();
        assert!(svg.contains("solved of"), "{stem}: no title");
    }
    // Memory in binary units as in the tables; counts labelled as powers of ten.
    let mem = std::fs::read_to_string(plots.join("memory_vs_length.svg")).unwrap();
    assert!(mem.contains("KiB"), "memory axis without KiB");
    assert!(!mem.contains(" MB<") && !mem.contains(" GB<") && !mem.contains(" kB<"));
    let nodes = std::fs::read_to_string(plots.join("nodes_vs_length.svg")).unwrap();
    assert!(nodes.contains("10¹"), "nodes axis without 10¹");

    // --no-titles: the same figures without the title text.
    let bare = dir.path().join("bare");
    report(&[path(&a), path(&b), "--plots", path(&bare), "--no-titles"]);
    let svg = std::fs::read_to_string(bare.join("time_cdf.svg")).unwrap();
    assert!(!svg.contains("solved of"), "title drawn with --no-titles");
    assert!(svg.contains("idastar/manhattan"), "legend lost");
    assert!(!bare.join("time_cdf.png").exists());
}

#[test]
fn bad_report_options_are_rejected() {
    let a = fixture("shard_a.csv");
    for (args, msg) in [
        (
            &["--pivot", "size"][..],
            "unknown pivot \"size\": expected depth",
        ),
        (
            &["--pivot", "depth", "--by", "moves"],
            "leave moves out of --by",
        ),
        (
            &["--pivot", "depth", "--pivot-value", "heap"],
            "expected expanded, generated, ms or bstar",
        ),
        (
            &["--format", "html"],
            "expected table, markdown, csv or latex",
        ),
        (&["--columns", "some"], "expected compact or all"),
        (
            &["--plots", "x", "--plot-format", "jpg"],
            "expected svg, png or pdf",
        ),
        (
            &["--plots", "x", "--plot-format", "png,png"],
            "--plot-format lists png twice",
        ),
        (&["--no-titles"], "--plots"),
        (&["--by", "file,file"], "--by lists file twice"),
    ] {
        bench()
            .arg("report")
            .arg(&a)
            .args(args)
            .assert()
            .failure()
            .stderr(predicates::str::contains(msg));
    }
}

#[test]
fn compare_gives_the_hand_computed_geometric_mean_and_interval() {
    let f = fixture("pivot.csv");
    let (out, _) = report(&[
        path(&f),
        "--compare",
        "astar/manhattan",
        "idastar/manhattan",
        "--format",
        "csv",
    ]);
    let mut r = csv::Reader::from_reader(out.as_bytes());
    let head = r.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    let col = |row: &csv::StringRecord, name: &str| -> String {
        row[head.iter().position(|h| h == name).unwrap()].to_string()
    };
    let num = |row: &csv::StringRecord, name: &str| -> f64 { col(row, name).parse().unwrap() };
    assert_eq!(rows.len(), 2);
    // Instances 1-4 both solved; astar alone solved 5.
    // Nodes expanded, A/B: 2/4, 4/4, 10/40, 20/80.
    let ratios = [0.5f64, 1.0, 0.25, 0.25];
    let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
    let mean = logs.iter().sum::<f64>() / 4.0;
    let sd = (logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / 3.0).sqrt();
    // Student's t, 0.975 quantile, 3 degrees of freedom (printed tables: 3.182).
    let half = 3.182 * sd / 2.0;
    let n = &rows[0];
    assert_eq!(col(n, "metric"), "expanded");
    assert_eq!(
        (col(n, "both_solved"), col(n, "only_a"), col(n, "only_b")),
        ("4".into(), "1".into(), "0".into())
    );
    let g = num(n, "ratio_geo_mean");
    assert!((g - 0.03125f64.powf(0.25)).abs() < 1e-12, "{g}");
    assert!((num(n, "ratio_ci95_low") - (mean - half).exp()).abs() < 1e-9);
    assert!((num(n, "ratio_ci95_high") - (mean + half).exp()).abs() < 1e-9);
    // A expands fewer nodes on 1, 3, 4; equal on 2.
    assert_eq!(
        (col(n, "a_lower"), col(n, "a_higher"), col(n, "tie")),
        ("3".into(), "0".into(), "1".into())
    );
    // Time, A/B: 0.01/0.005, 0.03/0.01, 0.1/0.05, 0.2/0.1: A slower on all four.
    let t = &rows[1];
    assert_eq!(col(t, "metric"), "time");
    let g = num(t, "ratio_geo_mean");
    assert!((g - 24f64.powf(0.25)).abs() < 1e-9, "{g}");
    assert_eq!(
        (col(t, "a_lower"), col(t, "a_higher"), col(t, "tie")),
        ("0".into(), "4".into(), "0".into())
    );
    // The text table rounds the same numbers and says it in words.
    let (text, _) = report(&[
        path(&f),
        "--compare",
        "astar/manhattan",
        "idastar/manhattan",
    ]);
    let line = text.lines().find(|l| l.starts_with("expanded")).unwrap();
    assert_eq!(
        line.split_whitespace().collect::<Vec<_>>(),
        [
            "expanded",
            "4",
            "1",
            "0",
            "0.420",
            "0.146-1.209",
            "3",
            "0",
            "1"
        ]
    );
    assert!(text.contains("astar/manhattan is 2.21"), "{text}");
    // Per group with --by: depth 6 has no instance both solved.
    let (by, _) = report(&[
        path(&f),
        "--compare",
        "astar/manhattan",
        "idastar/manhattan",
        "--by",
        "moves",
    ]);
    let six = by.lines().find(|l| l.starts_with("6 ")).unwrap();
    assert_eq!(
        six.split_whitespace().collect::<Vec<_>>(),
        ["6", "expanded", "0", "1", "0", "-", "-", "0", "0", "0"]
    );
    bench()
        .arg("report")
        .arg(&f)
        .args(["--compare", "astar/manhattan", "bfs/none"])
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "bfs/none: no rows of that pair; the results have astar/manhattan, idastar/manhattan",
        ));
    bench()
        .arg("report")
        .arg(&f)
        .args(["--compare", "astar/manhattan", "astar/manhattan"])
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "the two configurations are the same",
        ));
}

#[test]
fn unsolved_instances_take_the_optimal_column_of_their_file() {
    // Korf's instance 1 (published optimal length 57) stopped by a node limit: the pivot puts
    // it at depth 57 from the file's `optimal` column. Instance 2 run for the other goal is
    // not the file's problem: it stays `unsolved`.
    let korf = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/korf100.txt");
    let head = std::fs::read_to_string(fixture("shard_a.csv"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    let k = path(&korf);
    let body = format!(
        "{head}\n\
         r9,{k},1,4,4,blank-first,,idastar,manhattan,1,node-limit,,true,1000,2000,50,1024,1.0,1.0,0.01,41,,\n\
         r9,{k},2,4,4,blank-last,,idastar,manhattan,1,node-limit,,true,1000,2000,50,1024,1.0,1.0,0.01,41,,\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("k.csv");
    std::fs::write(&f, body).unwrap();
    let (out, _) = report(&[path(&f), "--pivot", "depth", "--format", "csv"]);
    let depths: Vec<String> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().to_string())
        .collect();
    assert_eq!(depths, ["57", "unsolved"], "{out}");
}
