//! The checks of `--resume`: what the output already holds, and whether this command continues
//! the same experiment (the same settings and instance files, rows only of its jobs) or is
//! refused (unless `--force`, and never for a changed instance file).

use std::collections::HashSet;
use std::path::Path;

use anyhow::{Context, bail};

use super::options::{RunOptions, info};
use super::plan::{self, Job, Program};
use crate::infra::output;
use crate::instances::InstanceSource;
use crate::results::meta::Meta;
use crate::results::{self};
use crate::search::Limits;

/// The differences between the run in a results file (its sidecar) and this command that would
/// make its rows not comparable.
pub(super) fn differences(old: &Meta, new: &Meta) -> Vec<String> {
    let mut out = Vec::new();
    let mut differ = |what: &str, then: String, now: String| {
        if then != now {
            out.push(format!("{what}: {then} then, {now} now"));
        }
    };
    let sorted = |v: &[String]| {
        let mut v = v.to_vec();
        v.sort();
        v.join(",")
    };
    differ(
        "algorithms",
        sorted(&old.algorithms),
        sorted(&new.algorithms),
    );
    differ(
        "heuristics",
        sorted(&old.heuristics),
        sorted(&new.heuristics),
    );
    let solvers = |m: &Meta| {
        let mut v: Vec<String> = m
            .solvers
            .iter()
            .map(|s| format!("{}={}", s.name, s.command))
            .collect();
        v.sort();
        v.join(" ")
    };
    differ("--solver", solvers(old), solvers(new));
    differ(
        "--isolate",
        old.isolate.to_string(),
        new.isolate.to_string(),
    );
    differ("--repeat", old.repeat.to_string(), new.repeat.to_string());
    differ("--warmup", old.warmup.to_string(), new.warmup.to_string());
    let opt = |v: Option<u64>| v.map_or("none".into(), |v| v.to_string());
    let ms = |l: &Limits| opt(l.timeout.map(|t| t.as_millis() as u64));
    differ("--timeout (ms)", ms(&old.limits), ms(&new.limits));
    differ(
        "--max-nodes",
        opt(old.limits.max_nodes),
        opt(new.limits.max_nodes),
    );
    differ(
        "--max-memory (bytes)",
        opt(old.limits.max_memory_bytes),
        opt(new.limits.max_memory_bytes),
    );
    differ(
        "--cpu-limit (ms)",
        opt(old.cpu_limit_ms),
        opt(new.cpu_limit_ms),
    );
    let files = |m: &Meta| {
        let mut v: Vec<String> = m
            .instance_files
            .iter()
            .map(|f| format!("{} (goal {}, sha256 {})", f.path, f.shape.goal, f.sha256))
            .collect();
        v.sort();
        v.join("; ")
    };
    differ("instance files", files(old), files(new));
    out
}

/// The message refusing to resume a file of another results schema version.
pub(super) fn schema_refusal(out_name: &Path, version: u32) -> String {
    format!(
        "--resume: {} holds rows of results schema version {version}; this program writes \
         version {}, and one file never mixes two. Start a new --out (`bench report` and \
         `bench merge` read both versions)",
        out_name.display(),
        results::SCHEMA_VERSION
    )
}

/// What the output already holds (a resumed run): its rows, and the sidecar of the run that
/// wrote them if there is one. A file of another schema version is refused: one file never
/// mixes two.
pub(super) fn read_previous(
    options: &RunOptions,
    out_name: &Path,
    locked: Option<&output::LockedOutput>,
    meta_path: Option<&Path>,
) -> anyhow::Result<(results::ResultsFile, Option<Meta>)> {
    match locked {
        Some(l) if !l.existing.is_empty() => {
            let existing = results::parse(out_name, &l.existing)
                .with_context(|| format!("--resume: cannot continue {}", out_name.display()))?;
            if let Some(v) = existing.version.filter(|&v| v != results::SCHEMA_VERSION) {
                bail!("{}", schema_refusal(out_name, v));
            }
            let previous = match meta_path.filter(|p| p.exists()) {
                Some(mp) => Some(Meta::read(mp).context("--resume")?),
                None => None,
            };
            Ok((existing, previous))
        }
        _ => {
            if options.resume {
                info(
                    options,
                    format!(
                        "resume: {} does not exist yet; starting the run",
                        out_name.display()
                    ),
                );
            }
            Ok((results::ResultsFile::default(), None))
        }
    }
}

/// Refuses, even with `--force`, to continue on an instance file whose content changed: the
/// rows' instance ids would name other boards than the new rows'.
pub(super) fn check_instance_files_unchanged(
    old: &Meta,
    now: &Meta,
    out_name: &Path,
) -> anyhow::Result<()> {
    let changed: Vec<String> = now
        .instance_files
        .iter()
        .filter_map(|now| {
            let then = old
                .instance_files
                .iter()
                .find(|f| f.path == now.path && f.sha256 != now.sha256)?;
            Some(format!(
                "{} (sha256 {} then, {} now)",
                now.path, then.sha256, now.sha256
            ))
        })
        .collect();
    if !changed.is_empty() {
        bail!(
            "--resume: instance file {} changed since the run in {} started; its rows are \
             results on other boards, so the run cannot continue, not even with --force. \
             Restore the file, or start a new --out",
            changed.join(", "),
            out_name.display()
        );
    }
    Ok(())
}

/// Rows of a resumed file that are no jobs of this command: how many, and the first one.
pub(super) struct RowsOutsidePlan {
    count: usize,
    line: u64,
    key: String,
}

impl RowsOutsidePlan {
    /// The refusal that names them.
    pub(super) fn describe(&self, out_name: &Path) -> String {
        format!(
            "{} row(s) are not jobs of this command, e.g. {}:{}: {}",
            self.count,
            out_name.display(),
            self.line,
            self.key
        )
    }
}

/// Leaves out the jobs the file's rows already did; returns how many were left out, and the
/// rows that match no job of this command (another run's: a refusal).
pub(super) fn leave_out_done(
    jobs: &mut Vec<Job>,
    sources: &[InstanceSource],
    pairs: &[Program],
    options: &RunOptions,
    existing: &results::ResultsFile,
) -> (usize, Option<RowsOutsidePlan>) {
    let done: HashSet<_> = existing.rows.iter().map(|(_, r)| r.key()).collect();
    let before = jobs.len();
    jobs.retain(|j| !done.contains(&j.key(sources)));
    let in_plan = before - jobs.len();
    if in_plan >= done.len() {
        return (in_plan, None);
    }
    // Rows may be of jobs of another shard: only those outside the whole plan are refused.
    let planned: HashSet<_> = plan::jobs(sources, pairs, options.repeat)
        .iter()
        .map(|j| j.key(sources))
        .collect();
    let (line, row) = existing
        .rows
        .iter()
        .find(|(_, r)| !planned.contains(&r.key()))
        .expect("a row outside the plan");
    let outside = RowsOutsidePlan {
        count: done.len() - in_plan,
        line: *line,
        key: row.key().to_string(),
    };
    (in_plan, Some(outside))
}

/// Stops a resume that would mix two experiments in one file, or with `--force` warns about
/// each difference and goes on.
pub(super) fn refuse_or_warn(
    options: &RunOptions,
    refusals: &[String],
    out_name: &Path,
) -> anyhow::Result<()> {
    if refusals.is_empty() {
        return Ok(());
    }
    if !options.force {
        bail!(
            "--resume: {} holds a different run; resuming would mix two experiments in one \
             file:\n  {}\nrepeat the original command with --resume, or pass --force to \
             continue anyway",
            out_name.display(),
            refusals.join("\n  ")
        );
    }
    for r in refusals {
        note!("warning: --resume --force: {}: {r}", out_name.display());
    }
    Ok(())
}

/// Says what a resume found: a torn last line cut off (a warning: a row was lost), and how
/// many jobs are done and left.
pub(super) fn note_resumed(
    options: &RunOptions,
    existing: &results::ResultsFile,
    out_name: &Path,
    in_plan: usize,
    before: usize,
    to_run: usize,
) {
    if let Some(torn) = &existing.torn {
        note!(
            "warning: {}:{}: cut off an incomplete last line ({} bytes) left by an interrupted run",
            out_name.display(),
            torn.line,
            torn.bytes
        );
    }
    info(
        options,
        format!(
            "resume: {in_plan} of {before} jobs already in {}, {to_run} to run",
            out_name.display(),
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusal is one sentence with single spaces (its source lines once lacked the `\`
    /// that joins them, printing a run of spaces mid-sentence).
    #[test]
    fn schema_refusal_reads_as_one_sentence() {
        let msg = schema_refusal(Path::new("results/old.csv"), 2);
        assert_eq!(
            msg,
            format!(
                "--resume: results/old.csv holds rows of results schema version 2; this program \
                 writes version {}, and one file never mixes two. Start a new --out (`bench \
                 report` and `bench merge` read both versions)",
                results::SCHEMA_VERSION
            )
        );
        assert!(!msg.contains("  "), "{msg}");
    }
}
