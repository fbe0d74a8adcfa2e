//! `bench merge`'s engine: joins the results files of one experiment's shards (or resumed
//! pieces) into one file of this schema version, with a sidecar listing the inputs. Every input
//! is read by the one results reader (so version-1 files merge too), must be complete (no torn
//! last line: a killed shard is finished with `--resume` first) and no job may appear twice.
//! An input whose sidecar says its run did not finish (a session left `running`,
//! `interrupted` or `failed`, or fewer rows than the jobs it planned) is refused, naming the
//! file and the count of missing jobs, unless the caller accepts incomplete inputs, and then
//! each is reported on stderr.

use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::Serialize;

use crate::infra::output::WriteError;
use crate::infra::provenance::{self as meta, Build};
use crate::results::meta::{Meta, SessionStatus};
use crate::results::{self, RowWriter, SCHEMA_VERSION};

/// One input of a merge, as recorded in the merged metadata.
#[derive(Debug, Serialize)]
struct MergedInput {
    file: String,
    sha256: String,
    /// The input's CSV schema version.
    schema_version: u32,
    rows: usize,
    /// The input's own sidecar, when present.
    meta: Option<Meta>,
}

/// The sidecar of a merged file.
#[derive(Debug, Serialize)]
struct MergedMeta {
    schema_version: u32,
    merged_at: String,
    program: Build,
    command_line: Vec<String>,
    rows: usize,
    inputs: Vec<MergedInput>,
}

/// What a merge wrote.
#[derive(Debug)]
pub struct Merged {
    /// Rows written.
    pub rows: usize,
    /// The sidecar (`None` when the rows went to stdout).
    pub sidecar: Option<PathBuf>,
}

/// Why an input's run did not finish, from its sidecar: `None` for a finished run (or a file
/// without a sidecar, which says nothing either way).
fn unfinished(rows: usize, meta: Option<&Meta>) -> Option<String> {
    let meta = meta?;
    let missing = meta.jobs_planned.saturating_sub(rows);
    let status = meta
        .sessions
        .last()
        .map_or(SessionStatus::Running, |s| s.status);
    if missing == 0 && status == SessionStatus::Complete {
        return None;
    }
    Some(format!(
        "its run is not finished: {missing} of {} planned jobs missing, last session {status}",
        meta.jobs_planned
    ))
}

/// Merges `inputs` into `out` (`-` for stdout), which must not exist yet; its sidecar records
/// `command_line`. Nothing is written unless every input reads and, without
/// `allow_incomplete`, every input's run finished; with it, each unfinished input is named in
/// a warning on stderr.
pub fn merge(
    inputs: &[PathBuf],
    out: &Path,
    command_line: Vec<String>,
    allow_incomplete: bool,
) -> anyhow::Result<Merged> {
    let to_stdout = out == Path::new("-");
    if !to_stdout && out.exists() {
        bail!("--out: {} already exists; choose a new file", out.display());
    }
    let mut files = Vec::new();
    for p in inputs {
        let f = results::read(p)?;
        f.require_header()?;
        f.reject_torn()?;
        files.push(f);
    }
    results::read::check_unique(&files)
        .context("the inputs overlap (the same shard twice, or shards of different runs?)")?;
    let mut metas = Vec::new();
    for f in &files {
        let mp = meta::sidecar_path(&f.path);
        let input_meta = if mp.exists() {
            Some(Meta::read(&mp)?)
        } else {
            None
        };
        if let Some(why) = unfinished(f.rows.len(), input_meta.as_ref()) {
            if !allow_incomplete {
                bail!(
                    "{}: {why}; finish it with `bench run --resume` (same arguments), or pass \
                     --allow-incomplete to merge it anyway",
                    f.path.display()
                );
            }
            eprintln!(
                "warning: {}: {why}; merged anyway (--allow-incomplete): the merged file \
                 lacks those jobs",
                f.path.display()
            );
        }
        metas.push(input_meta);
    }
    let write_error = |error| WriteError {
        path: out.to_path_buf(),
        error,
    };
    let mut writer = if to_stdout {
        RowWriter::stdout()
    } else {
        File::create(out).and_then(|f| RowWriter::append(f, &Default::default()))
    }
    .map_err(write_error)?;
    let mut total = 0;
    for f in &files {
        for (_, row) in &f.rows {
            writer.write(row).map_err(write_error)?;
            total += 1;
        }
    }
    drop(writer);
    if to_stdout {
        return Ok(Merged {
            rows: total,
            sidecar: None,
        });
    }
    let mut merged_inputs = Vec::new();
    for (f, input_meta) in files.iter().zip(metas) {
        merged_inputs.push(MergedInput {
            file: f.path.display().to_string(),
            sha256: meta::sha256_file(&f.path)
                .with_context(|| format!("cannot read {}", f.path.display()))?,
            schema_version: f.version.unwrap_or(SCHEMA_VERSION),
            rows: f.rows.len(),
            meta: input_meta,
        });
    }
    let merged = MergedMeta {
        schema_version: SCHEMA_VERSION,
        merged_at: meta::now_rfc3339(),
        program: Build::current(),
        command_line,
        rows: total,
        inputs: merged_inputs,
    };
    let mp = meta::sidecar_path(out);
    let text = serde_json::to_string_pretty(&merged)? + "\n";
    std::fs::write(&mp, text).map_err(|error| WriteError {
        path: mp.clone(),
        error,
    })?;
    Ok(Merged {
        rows: total,
        sidecar: Some(mp),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::infra::provenance::Host;
    use crate::results::meta::Session;
    use crate::search::Limits;

    fn meta(planned: usize, status: SessionStatus) -> Meta {
        let session = Session {
            command_line: Vec::new(),
            program: Build::current(),
            threads: 1,
            start_time: String::new(),
            end_time: None,
            jobs_to_run: planned,
            rows_written: 0,
            status,
            pid: None,
            hostname: None,
        };
        Meta {
            schema_version: SCHEMA_VERSION,
            run_id: "r".into(),
            program: Build::current(),
            command_line: Vec::new(),
            threads: 1,
            limits: Limits::default(),
            job_order_seed: 0,
            shard: None,
            algorithms: Vec::new(),
            heuristics: Vec::new(),
            repeat: 1,
            solvers: Vec::new(),
            isolate: false,
            cpu_limit_ms: None,
            warmup: 0,
            jobs_planned: planned,
            host: Host::current(),
            instance_files: Vec::new(),
            start_time: String::new(),
            end_time: None,
            sessions: vec![session],
        }
    }

    #[test]
    fn an_unfinished_run_is_named_with_its_missing_jobs() {
        assert_eq!(unfinished(10, None), None);
        assert_eq!(
            unfinished(10, Some(&meta(10, SessionStatus::Complete))),
            None
        );
        let why = unfinished(4, Some(&meta(10, SessionStatus::Interrupted))).unwrap();
        assert!(why.contains("6 of 10 planned jobs missing"), "{why}");
        assert!(why.contains("interrupted"), "{why}");
        let why = unfinished(10, Some(&meta(10, SessionStatus::Running))).unwrap();
        assert!(why.contains("0 of 10") && why.contains("running"), "{why}");
    }
}
