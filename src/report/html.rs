//! `bench report --html FILE`: one self-contained HTML page (no network: inline CSS, script and
//! SVG, a Content-Security-Policy that forbids fetching anything) holding
//!
//! - the runs' metadata from the sidecars (`<results>.meta.json`, also the inputs of a
//!   `bench merge` sidecar): program, version, commit, host, command lines, seeds, limits;
//! - the summary table of the text report (same `--by` and `--baseline`), sortable by any column;
//! - the SVG figures of [`super::plots`] inline, with captions;
//! - a per-instance table with filters, a scatter plot of two configurations, coverage over
//!   time, and a playback of one solution, all drawn client-side from the embedded data.
//!
//! The data travel as JSON in a `<script type="application/json">` block, with every `<`
//! written as `\u003c` so that no cell can close the block. The page's script
//! (`html/report.js`) builds every element from that JSON with `textContent`, never markup.
//!
//! Playback needs each instance's start board, which the results CSV does not hold: it is read
//! from the instance file named in the `instance_file` column (as named, then relative to the
//! results file's directory and its parent), checked against the sidecar's SHA-256 when there
//! is one, and every solution is replayed on it. When the file cannot be found the start board
//! is reconstructed by undoing the solution from the goal, and the page says so.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;
use thiserror::Error;

use super::aggregate::{GroupBy, Summary, instance_lengths};

use super::plots;
use super::table::{Format, render};
use crate::board::{Board, Goal, moves_from_str};
use crate::infra::chart::PlotError;
use crate::infra::output::WriteError;
use crate::infra::provenance::{self as meta, Build, Host};
use crate::instances::{InstanceSet, read_instance_file};
use crate::results::meta::{Meta, SessionStatus};
use crate::results::{InstanceKey, Outcome, Row};

/// The largest board (in cells) the playback draws; solutions on larger boards (the
/// polynomial-time solver's, up to millions of moves) stay out of the page.
pub const MAX_PLAYBACK_CELLS: usize = 1024;

const CSS: &str = include_str!("html/report.css");
const JS: &str = include_str!("html/report.js");

/// The page could not be made.
#[derive(Debug, Error)]
pub enum HtmlError {
    /// A figure could not be drawn.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// The scratch directory for the figures could not be made or read.
    #[error("cannot use a temporary directory for the figures")]
    Scratch(#[source] std::io::Error),
}

/// What the page is made of: the rows, the summaries of the text report and how they were made.
#[derive(Debug, Clone, Copy)]
pub struct HtmlInput<'a> {
    /// The results files, as named on the command line.
    pub files: &'a [PathBuf],
    /// Their rows.
    pub records: &'a [Row],
    /// The summaries (as the text report has them).
    pub summaries: &'a [Summary],
    /// The `--by` groupings of the summaries.
    pub by: &'a [GroupBy],
    /// The `--baseline` pair, if any.
    pub baseline: Option<&'a str>,
    /// The command line that made the report, shown in the page.
    pub command_line: &'a [String],
}

/// A rendered page.
#[derive(Debug, Clone)]
pub struct HtmlReport {
    /// The HTML text.
    pub html: String,
    /// Things the reader should know (missing sidecars or instance files, solutions that do not
    /// replay); also shown in the page.
    pub notes: Vec<String>,
}

/// One results file with what its sidecar says.
#[derive(Debug, Serialize)]
struct FileInfo {
    path: String,
    /// Rows of the file's runs (by the sidecar's run ids; unknown without a sidecar).
    rows: Option<usize>,
    /// `run`, `merged`, `missing` or `unreadable`.
    sidecar: &'static str,
    sidecar_path: String,
    runs: Vec<RunInfo>,
}

/// One run (a `bench run` sidecar).
#[derive(Debug, Serialize)]
struct RunInfo {
    run_id: String,
    program: Build,
    host: Host,
    threads: usize,
    limits: LimitsInfo,
    /// As a string: a u64 does not survive JavaScript's numbers.
    job_order_seed: String,
    shard: Option<String>,
    algorithms: Vec<String>,
    heuristics: Vec<String>,
    repeat: u32,
    jobs_planned: usize,
    start_time: String,
    end_time: Option<String>,
    sessions: Vec<SessionInfo>,
    instance_files: Vec<InstanceFileInfo>,
}

#[derive(Debug, Serialize)]
struct LimitsInfo {
    timeout_ms: Option<u128>,
    max_nodes: Option<u64>,
    max_memory_bytes: Option<u64>,
}

#[derive(Debug, Serialize)]
struct SessionInfo {
    command_line: String,
    start_time: String,
    end_time: Option<String>,
    status: SessionStatus,
    rows_written: usize,
    threads: usize,
    hostname: Option<String>,
}

#[derive(Debug, Serialize)]
struct InstanceFileInfo {
    path: String,
    sha256: String,
    instances: usize,
    size: String,
    goal: Goal,
    /// The `# key: value` header lines of the file (generator, seed, reproduce command), when
    /// the file is found and unchanged.
    header: Vec<(String, String)>,
}

/// One instance (file, id, size, goal).
#[derive(Debug, Serialize)]
struct InstanceInfo {
    file: String,
    id: String,
    rows: u32,
    cols: u32,
    goal: String,
    /// The optimal solution length (shortest solution of an optimal algorithm in the results).
    length: Option<u32>,
    /// The start board, row-major, 0 = blank (only for instances with a kept solution).
    tiles: Option<Vec<u32>>,
    /// Where `tiles` came from: `file` or `reconstructed` (undoing a solution from the goal).
    start: Option<&'static str>,
}

/// The summary table: titles, CSV keys, and cells (numbers unrounded, text, or null).
#[derive(Debug, Serialize)]
struct SummaryTable {
    titles: Vec<String>,
    keys: Vec<String>,
    rows: Vec<Vec<Value>>,
}

/// One row: instance index, pair index, repetition, status, moves, nodes expanded, nodes
/// generated, wall ms, peak heap bytes, solution.
type RowOut<'a> = (
    usize,
    usize,
    u32,
    &'static str,
    Option<u32>,
    Option<u64>,
    Option<u64>,
    f64,
    Option<u64>,
    Option<&'a str>,
);

#[derive(Debug, Serialize)]
struct PageData<'a> {
    generated: String,
    program: Build,
    command_line: String,
    files: Vec<FileInfo>,
    notes: &'a [String],
    summary: SummaryTable,
    pairs: Vec<String>,
    instances: Vec<InstanceInfo>,
    row_columns: [&'static str; 10],
    rows: Vec<RowOut<'a>>,
}

/// The caption of each figure of [`plots::write_plots`], by file name.
fn caption(file: &str) -> &'static str {
    match file {
        "nodes_vs_length.svg" => {
            "Mean nodes expanded per solution length, one line per algorithm/heuristic \
             (solved runs; log y axis)."
        }
        "time_cdf.svg" => {
            "Cumulative distribution of wall time per run (log x axis); a curve tops out at \
             the pair's solved fraction."
        }
        "memory_vs_length.svg" => "Mean peak heap per solution length (solved runs; log y axis).",
        "bstar_by_depth.svg" => {
            "Effective branching factor b* of the mean nodes generated at each solution length."
        }
        _ => "",
    }
}

/// A command line as one shell-readable string.
fn shell_join(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%^".contains(c));
            if plain {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `# key: value` lines at the top of an instance file.
fn header_lines(text: &str) -> Vec<(String, String)> {
    text.lines()
        .take_while(|l| l.starts_with('#'))
        .filter_map(|l| {
            let (k, v) = l.trim_start_matches('#').split_once(':')?;
            Some((k.trim().to_string(), v.trim().to_string()))
        })
        .filter(|(k, _)| !k.is_empty() && !k.contains(' '))
        .collect()
}

/// Where an instance file named `name` in the rows of `results` may be on this machine.
fn candidates(name: &str, results: &Path) -> Vec<PathBuf> {
    let p = PathBuf::from(name);
    let mut out = vec![p.clone()];
    if p.is_relative() {
        let mut dir = results.parent();
        for _ in 0..2 {
            let Some(d) = dir else { break };
            out.push(d.join(&p));
            dir = d.parent();
        }
    }
    out
}

fn run_info(m: Meta) -> RunInfo {
    RunInfo {
        run_id: m.run_id,
        program: m.program,
        host: m.host,
        threads: m.threads,
        limits: LimitsInfo {
            timeout_ms: m.limits.timeout.map(|d| d.as_millis()),
            max_nodes: m.limits.max_nodes,
            max_memory_bytes: m.limits.max_memory_bytes,
        },
        job_order_seed: m.job_order_seed.to_string(),
        shard: m.shard,
        algorithms: m.algorithms,
        heuristics: m.heuristics,
        repeat: m.repeat,
        jobs_planned: m.jobs_planned,
        start_time: m.start_time,
        end_time: m.end_time,
        sessions: m
            .sessions
            .into_iter()
            .map(|s| SessionInfo {
                command_line: shell_join(&s.command_line),
                start_time: s.start_time,
                end_time: s.end_time,
                status: s.status,
                rows_written: s.rows_written,
                threads: s.threads,
                hostname: s.hostname,
            })
            .collect(),
        instance_files: m
            .instance_files
            .into_iter()
            .map(|f| InstanceFileInfo {
                path: f.path,
                sha256: f.sha256,
                instances: f.instances,
                size: format!("{}x{}", f.shape.rows, f.shape.cols),
                goal: f.shape.goal,
                header: Vec::new(),
            })
            .collect(),
    }
}

/// Reads the sidecar of `file`: a run's, or a merge's (whose inputs carry their runs').
fn read_sidecar(file: &Path, notes: &mut Vec<String>) -> FileInfo {
    let sp = meta::sidecar_path(file);
    let mut info = FileInfo {
        path: file.display().to_string(),
        rows: None,
        sidecar: "missing",
        sidecar_path: sp.display().to_string(),
        runs: Vec::new(),
    };
    let text = match std::fs::read_to_string(&sp) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            notes.push(format!(
                "{}: no metadata sidecar ({}); the run's program, host and limits are unknown",
                file.display(),
                sp.display()
            ));
            return info;
        }
        Err(e) => {
            info.sidecar = "unreadable";
            notes.push(format!("{}: cannot read: {e}", sp.display()));
            return info;
        }
    };
    match serde_json::from_str::<Meta>(&text) {
        Ok(m) => {
            info.sidecar = "run";
            info.runs.push(run_info(m));
        }
        Err(run_err) => {
            // A merged file's sidecar: {"inputs": [{"meta": <run sidecar> | null, ...}]}.
            let merged = serde_json::from_str::<Value>(&text).ok().and_then(|v| {
                let inputs = v.get("inputs")?.as_array()?.clone();
                Some(
                    inputs
                        .into_iter()
                        .filter_map(|i| serde_json::from_value::<Meta>(i.get("meta")?.clone()).ok())
                        .collect::<Vec<_>>(),
                )
            });
            match merged {
                Some(metas) => {
                    info.sidecar = "merged";
                    info.runs.extend(metas.into_iter().map(run_info));
                }
                None => {
                    info.sidecar = "unreadable";
                    notes.push(format!(
                        "{}: not a results metadata file ({run_err})",
                        sp.display()
                    ));
                }
            }
        }
    }
    info
}

/// The instance files the rows name, read where found: (path as named, goal) -> set.
struct InstanceFiles {
    sets: HashMap<(String, Goal), Option<InstanceSet>>,
    /// SHA-256 of each file as the sidecars recorded it.
    recorded: HashMap<String, String>,
    /// The header lines of each file found.
    headers: HashMap<String, Vec<(String, String)>>,
}

impl InstanceFiles {
    fn get(
        &mut self,
        name: &str,
        goal: Goal,
        results: &Path,
        notes: &mut Vec<String>,
    ) -> Option<&InstanceSet> {
        let key = (name.to_string(), goal);
        if !self.sets.contains_key(&key) {
            let set = self.load(name, goal, results, notes);
            self.sets.insert(key.clone(), set);
        }
        self.sets[&key].as_ref()
    }

    fn load(
        &mut self,
        name: &str,
        goal: Goal,
        results: &Path,
        notes: &mut Vec<String>,
    ) -> Option<InstanceSet> {
        let Some(path) = candidates(name, results).into_iter().find(|p| p.is_file()) else {
            notes.push(format!(
                "instance file {name} not found (as named, nor beside {}); playback starts from \
                 boards reconstructed by undoing each solution from the goal",
                results.display()
            ));
            return None;
        };
        if let Some(want) = self.recorded.get(name) {
            match meta::sha256_file(&path) {
                Ok(have) if &have == want => {}
                Ok(_) => {
                    notes.push(format!(
                        "{}: changed since the run (SHA-256 differs from the sidecar's); \
                         playback starts from reconstructed boards",
                        path.display()
                    ));
                    return None;
                }
                Err(e) => {
                    notes.push(format!("{}: cannot read: {e}", path.display()));
                    return None;
                }
            }
        }
        match read_instance_file(&path, Some(goal)) {
            Ok(set) => {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    self.headers.insert(name.to_string(), header_lines(&text));
                }
                Some(set)
            }
            Err(e) => {
                notes.push(format!("{e}; playback starts from reconstructed boards"));
                None
            }
        }
    }
}

/// The start board that `solution` solves, found by undoing it from the goal; `None` if a
/// move leaves the board.
fn reconstruct(rows: usize, cols: usize, goal: Goal, solution: &str) -> Option<Board> {
    let moves = moves_from_str(solution).ok()?;
    let mut b = Board::solved(rows, cols, goal);
    for m in moves.iter().rev() {
        if !b.apply(m.inverse()) {
            return None;
        }
    }
    Some(b)
}

/// The summary table as the CSV format renders it (unrounded), titled as the text table is.
fn summary_table(input: &HtmlInput<'_>) -> SummaryTable {
    let csv_text = render(input.summaries, input.by, input.baseline, Format::Csv);
    let md = render(input.summaries, input.by, input.baseline, Format::Markdown);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(csv_text.as_bytes());
    let keys: Vec<String> = reader
        .headers()
        .map(|h| h.iter().map(str::to_string).collect())
        .unwrap_or_default();
    let rows: Vec<Vec<Value>> = reader
        .records()
        .filter_map(Result::ok)
        .map(|r| {
            r.iter()
                .map(|c| {
                    if c.is_empty() {
                        Value::Null
                    } else if let Some(n) = c
                        .parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite())
                        .and_then(serde_json::Number::from_f64)
                    {
                        Value::Number(n)
                    } else {
                        Value::String(c.to_string())
                    }
                })
                .collect()
        })
        .collect();
    // The Markdown header line: "| a | b | ... |".
    let titles: Vec<String> = md
        .lines()
        .next()
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split(" | ")
                .map(|t| t.trim().to_string())
                .collect()
        })
        .unwrap_or_default();
    let titles = if titles.len() == keys.len() {
        titles
    } else {
        keys.clone()
    };
    SummaryTable { titles, keys, rows }
}

/// Escapes text for HTML element content and attribute values.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON for a `<script type="application/json">` block: `<`, `>` and `&` as `\u` escapes (they
/// only occur inside strings), so that nothing in the data can end the block or open a comment.
pub fn json_for_script<T: Serialize>(value: &T) -> String {
    let text = serde_json::to_string(value).expect("the page data serialise to JSON");
    text.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// Builds the page: the sidecars, the pairs and instances, every kept solution replayed, the
/// rows, the figures, all in one JSON block beside the script that draws them.
pub fn render_html(input: &HtmlInput<'_>) -> Result<HtmlReport, HtmlError> {
    let mut notes = Vec::new();
    let mut files = read_sidecars(input, &mut notes);
    let mut pairs: Vec<String> = input.records.iter().map(|r| r.pair().to_string()).collect();
    pairs.sort();
    pairs.dedup();
    let pair_index: HashMap<&str, usize> = pairs
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i))
        .collect();
    let (instance_index, mut instances) = list_instances(input.records);
    let mut sets = InstanceFiles {
        sets: HashMap::new(),
        recorded: files
            .iter()
            .flat_map(|f| &f.runs)
            .flat_map(|r| &r.instance_files)
            .map(|f| (f.path.clone(), f.sha256.clone()))
            .collect(),
        headers: HashMap::new(),
    };
    let solution_ok = replay_solutions(
        input,
        &files,
        &instance_index,
        &mut instances,
        &mut sets,
        &mut notes,
    );
    for f in files.iter_mut().flat_map(|f| f.runs.iter_mut()) {
        for inst in &mut f.instance_files {
            if let Some(h) = sets.headers.get(&inst.path) {
                inst.header = h.clone();
            }
        }
    }

    let rows: Vec<RowOut<'_>> = input
        .records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            (
                instance_index[&r.instance_key()],
                pair_index[r.pair().to_string().as_str()],
                r.repetition,
                r.status.name(),
                r.moves,
                r.nodes_expanded,
                r.nodes_generated,
                r.wall_ms,
                r.peak_heap_bytes,
                r.solution.as_deref().filter(|_| solution_ok[i]),
            )
        })
        .collect();
    let figures = figures_html(input.records)?;
    let summary = summary_table(input);
    let data = PageData {
        generated: meta::now_rfc3339(),
        program: Build::current(),
        command_line: shell_join(input.command_line),
        files,
        notes: &notes,
        summary,
        pairs,
        instances,
        row_columns: [
            "instance",
            "pair",
            "repetition",
            "status",
            "moves",
            "nodes_expanded",
            "nodes_generated",
            "wall_ms",
            "peak_heap_bytes",
            "solution",
        ],
        rows,
    };
    let title = format!(
        "bench report: {}",
        input
            .files
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let html = page(&title, &figures, &json_for_script(&data));
    Ok(HtmlReport { html, notes })
}

/// The sidecar of each results file, with how many of the rows its runs wrote (by run id).
fn read_sidecars(input: &HtmlInput<'_>, notes: &mut Vec<String>) -> Vec<FileInfo> {
    let mut per_run: HashMap<&str, usize> = HashMap::new();
    for r in input.records {
        *per_run.entry(r.run_id.as_str()).or_default() += 1;
    }
    let mut files: Vec<FileInfo> = input.files.iter().map(|f| read_sidecar(f, notes)).collect();
    for fi in &mut files {
        if !fi.runs.is_empty() {
            let mut ids: Vec<&str> = fi.runs.iter().map(|r| r.run_id.as_str()).collect();
            ids.sort_unstable();
            ids.dedup();
            fi.rows = Some(
                ids.iter()
                    .map(|id| per_run.get(id).copied().unwrap_or(0))
                    .sum(),
            );
        }
    }
    files
}

/// The instances of the rows in a stable order (by file, then id as a number when it is one),
/// with each key's index in that order.
fn list_instances(records: &[Row]) -> (BTreeMap<InstanceKey<'_>, usize>, Vec<InstanceInfo>) {
    let lengths = instance_lengths(records);
    let mut instance_index: BTreeMap<InstanceKey<'_>, usize> = BTreeMap::new();
    for r in records {
        let n = instance_index.len();
        instance_index.entry(r.instance_key()).or_insert(n);
    }
    let mut keys: Vec<_> = instance_index.keys().copied().collect();
    keys.sort_by(|a, b| {
        (a.0, a.1.parse::<u64>().ok(), a.1, a.2, a.3, a.4).cmp(&(
            b.0,
            b.1.parse::<u64>().ok(),
            b.1,
            b.2,
            b.3,
            b.4,
        ))
    });
    for (i, k) in keys.iter().enumerate() {
        instance_index.insert(*k, i);
    }
    let instances = keys
        .iter()
        .map(|k| InstanceInfo {
            file: k.0.to_string(),
            id: k.1.to_string(),
            rows: k.2,
            cols: k.3,
            goal: k.4.to_string(),
            length: lengths.get(k).copied(),
            tiles: None,
            start: None,
        })
        .collect();
    (instance_index, instances)
}

/// Solutions that cannot be played back, counted for the notes.
#[derive(Default)]
struct Unplayable {
    /// Solutions that do not parse or do not replay to the goal.
    bad: usize,
    /// The first of them, named.
    first_bad: Option<String>,
    /// Solutions on boards too large for the page.
    too_large: usize,
}

impl Unplayable {
    fn bad(&mut self, r: &Row) {
        self.bad += 1;
        self.first_bad
            .get_or_insert_with(|| format!("{} #{} {}", r.instance_file, r.instance_id, r.pair()));
    }

    /// The notes that say what was left out of the playback.
    fn notes(self, notes: &mut Vec<String>) {
        let Unplayable {
            bad,
            first_bad,
            too_large,
        } = self;
        if let Some(first) = first_bad {
            notes.push(format!(
                "{bad} solution(s) do not replay on their start board (first: {first}); \
                 they are left out of the playback"
            ));
        }
        if too_large > 0 {
            notes.push(format!(
                "{too_large} solution(s) on boards of more than {MAX_PLAYBACK_CELLS} cells are \
                 left out of the page (no playback for them)"
            ));
        }
    }
}

/// Replays every kept solution of a solved row on its start board: the instance file's board
/// (found beside the results file of its run, unchanged since the run), or one reconstructed by
/// undoing the solution from the goal. Returns, per row, whether its solution replayed; only
/// those are played back in the page.
fn replay_solutions(
    input: &HtmlInput<'_>,
    files: &[FileInfo],
    instance_index: &BTreeMap<InstanceKey<'_>, usize>,
    instances: &mut [InstanceInfo],
    sets: &mut InstanceFiles,
    notes: &mut Vec<String>,
) -> Vec<bool> {
    // The results file each run id came from, to look for instance files beside it.
    let run_file: HashMap<&str, &Path> = files
        .iter()
        .zip(input.files)
        .flat_map(|(fi, p)| {
            fi.runs
                .iter()
                .map(move |r| (r.run_id.as_str(), p.as_path()))
        })
        .collect();
    let fallback = input.files.first().map_or(Path::new("."), PathBuf::as_path);
    let mut unplayable = Unplayable::default();
    let mut solution_ok = vec![false; input.records.len()];
    for (ri, r) in input.records.iter().enumerate() {
        let Some(sol) = r.solution.as_deref() else {
            continue;
        };
        if r.status != Outcome::Solved {
            continue;
        }
        let idx = instance_index[&r.instance_key()];
        let shape = r.shape();
        let (rows, cols) = (shape.rows, shape.cols);
        if shape.cells() > MAX_PLAYBACK_CELLS {
            unplayable.too_large += 1;
            continue;
        }
        let goal = r.goal;
        let Ok(moves) = moves_from_str(sol) else {
            unplayable.bad(r);
            continue;
        };
        if instances[idx].tiles.is_none() {
            let results = run_file.get(r.run_id.as_str()).copied().unwrap_or(fallback);
            let from_file = sets
                .get(&r.instance_file, goal, results, notes)
                .and_then(|s| s.instances.iter().find(|i| i.id == r.instance_id))
                .map(|i| i.board.clone())
                .filter(|b| b.rows() == rows && b.cols() == cols);
            if let Some(b) = from_file {
                instances[idx].tiles = Some(b.tiles().to_vec());
                instances[idx].start = Some("file");
            } else if let Some(b) = reconstruct(rows, cols, goal, sol) {
                instances[idx].tiles = Some(b.tiles().to_vec());
                instances[idx].start = Some("reconstructed");
            }
        }
        let ok = instances[idx].tiles.as_ref().is_some_and(|t| {
            Board::new(rows, cols, t.clone()).is_ok_and(|b| b.replay_reaches_goal(&moves, goal))
        });
        if ok {
            solution_ok[ri] = true;
        } else {
            unplayable.bad(r);
        }
    }
    unplayable.notes(notes);
    solution_ok
}

/// The figures of `--plots` as inline SVG, each with its caption, drawn into a scratch
/// directory (the page's captions carry the titles, as in a paper).
fn figures_html(records: &[Row]) -> Result<String, HtmlError> {
    let scratch = tempfile::tempdir().map_err(HtmlError::Scratch)?;
    let untitled = plots::PlotOptions {
        titles: false,
        ..plots::PlotOptions::default()
    };
    let (written, _) = plots::write_plots_with(scratch.path(), records, &untitled)?;
    let mut figures = String::new();
    for (n, path) in written.iter().enumerate() {
        let svg = std::fs::read_to_string(path).map_err(HtmlError::Scratch)?;
        let name = path
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        // The XML declaration, if any, has no place inside HTML.
        let svg = svg
            .trim_start()
            .strip_prefix("<?xml")
            .and_then(|rest| rest.split_once("?>").map(|(_, s)| s))
            .unwrap_or(&svg)
            .trim();
        figures.push_str(&format!(
            "<figure class=\"plot\" id=\"figure-{}\">\n{svg}\n<figcaption><b>Figure {}.</b> {} \
             <span class=\"file\">({})</span></figcaption>\n</figure>\n",
            escape_html(name.trim_end_matches(".svg")),
            n + 1,
            escape_html(caption(&name)),
            escape_html(&name)
        ));
    }
    if figures.is_empty() {
        figures.push_str("<p class=\"empty\">No solved runs: nothing to draw.</p>\n");
    }
    Ok(figures)
}

fn page(title: &str, figures: &str, data: &str) -> String {
    let title = escape_html(title);
    format!(
        r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{title}</title>
<style>
{CSS}</style>
</head>
<body>
<header>
<h1>{title}</h1>
<p id="generated" class="sub"></p>
<nav><a href="#runs">Runs</a> <a href="#summary">Summary</a> <a href="#figures">Figures</a> <a href="#scatter">Scatter</a> <a href="#coverage">Coverage</a> <a href="#instances">Instances</a> <a href="#playback">Playback</a></nav>
</header>
<noscript><p class="note">The tables, the scatter plot, coverage and playback are drawn by the page's script; the figures below are static.</p></noscript>
<section id="notes-section" hidden><h2>Notes</h2><ul id="notes"></ul></section>
<section id="runs"><h2>Runs</h2><div id="runs-body"></div></section>
<section id="summary"><h2>Summary</h2>
<p class="help">One row per algorithm/heuristic (and group). Statistics over solved runs. Click a column header to sort; click again to reverse.</p>
<div class="scroll"><table id="summary-table" class="data"></table></div></section>
<section id="figures"><h2>Figures</h2>
{figures}</section>
<section id="scatter"><h2>Scatter: two configurations</h2>
<p class="controls"><label>x: <select id="scatter-a"></select></label> <label>y: <select id="scatter-b"></select></label> <label>measure: <select id="scatter-metric"><option value="expanded">nodes expanded</option><option value="time">wall time (ms)</option></select></label></p>
<div id="scatter-plot" class="plot-box"></div>
<p id="scatter-stats" class="help"></p></section>
<section id="coverage"><h2>Coverage over time</h2>
<div id="coverage-plot" class="plot-box"></div>
<p class="help">Instances solved (mean wall time over repetitions of each instance) within a given time, one line per algorithm/heuristic; log time axis.</p></section>
<section id="instances"><h2>Instances</h2>
<p class="controls"><label>board size <select id="filter-size"></select></label> <label>instance file <select id="filter-file"></select></label> <label>status <select id="filter-status"></select></label> <label>algorithm/heuristic <select id="filter-pair"></select></label> <label>id <input id="filter-id" size="8"></label></p>
<p id="instance-count" class="help"></p>
<div class="scroll"><table id="instance-table" class="data"></table></div>
<p class="controls"><button id="page-prev" type="button">&larr; previous</button> <span id="page-info"></span> <button id="page-next" type="button">next &rarr;</button></p></section>
<section id="playback"><h2>Solution playback</h2>
<p class="controls"><label>run <select id="pb-run"></select></label></p>
<p class="controls"><button id="pb-first" type="button">&#x23EE; start</button> <button id="pb-prev" type="button">&#x25C0; prev</button> <button id="pb-play" type="button">&#x25B6; play</button> <button id="pb-next" type="button">next &#x25B6;</button> <button id="pb-last" type="button">end &#x23ED;</button> <span id="pb-step"></span></p>
<div id="pb-board"></div>
<p id="pb-info" class="help"></p></section>
<script type="application/json" id="report-data">{data}</script>
<script>
{JS}</script>
</body>
</html>
"##
    )
}

/// Writes `report` to `path` (a failure is the CLI's exit status 74, as for every output).
pub fn write_html(path: &Path, report: &HtmlReport) -> Result<(), WriteError> {
    std::fs::write(path, &report.html).map_err(|error| WriteError {
        path: path.to_path_buf(),
        error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_cannot_close_the_script_block() {
        let s = json_for_script(&vec!["</script><!-- & >"]);
        assert!(!s.contains('<') && !s.contains('>') && !s.contains('&'));
        let back: Vec<String> = serde_json::from_str(&s).unwrap();
        assert_eq!(back, ["</script><!-- & >"]);
    }

    #[test]
    fn assets_cannot_end_their_elements() {
        assert!(!JS.to_ascii_lowercase().contains("</script"));
        assert!(!CSS.to_ascii_lowercase().contains("</style"));
    }

    #[test]
    fn reconstructed_start_is_undone_from_the_goal() {
        // Blank-last 2 x 2 goal 1 2 / 3 _. From _ 2 / 1 3 the blank goes down (swapping with 1)
        // then right (swapping with 3) and reaches the goal.
        let b = reconstruct(2, 2, Goal::BlankLast, "DR").unwrap();
        assert_eq!(b.tiles(), [0, 2, 1, 3]);
        // Ending at the goal's blank cell (bottom right) by a move left is impossible.
        assert!(reconstruct(2, 2, Goal::BlankLast, "UL").is_none());
        assert!(reconstruct(2, 2, Goal::BlankLast, "DX").is_none());
        assert_eq!(
            reconstruct(3, 3, Goal::BlankFirst, "").unwrap().tiles()[0],
            0
        );
    }

    #[test]
    fn shell_join_quotes_what_needs_it() {
        let args: Vec<String> = ["bench", "run", "--out", "a b.csv", "it's"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(shell_join(&args), r"bench run --out 'a b.csv' 'it'\''s'");
    }

    #[test]
    fn header_lines_of_an_instance_file() {
        let h = header_lines("# npuzzle-instances 1\n# rows: 3\n# seed: 7\nid\ttiles\n# x: 1\n");
        assert_eq!(
            h,
            [
                ("rows".to_string(), "3".to_string()),
                ("seed".to_string(), "7".to_string())
            ]
        );
    }
}
