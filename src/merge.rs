//! `bench merge`'s engine: joins the results files of one experiment's shards (or resumed
//! pieces) into one file of this schema version, with a sidecar listing the inputs. Every input
//! is read by the one results reader (so version-1 files merge too), must be complete (no torn
//! last line: a killed shard is finished with `--resume` first) and no job may appear twice.

use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::Serialize;

use crate::infra::output::WriteError;
use crate::infra::provenance::{self as meta, Program};
use crate::results::meta::Meta;
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
    program: Program,
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

/// Merges `inputs` into `out` (`-` for stdout), which must not exist yet; its sidecar records
/// `command_line`. Nothing is written unless every input reads.
pub fn merge(inputs: &[PathBuf], out: &Path, command_line: Vec<String>) -> anyhow::Result<Merged> {
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
    for f in &files {
        let mp = meta::sidecar_path(&f.path);
        let input_meta = if mp.exists() {
            Some(Meta::read(&mp)?)
        } else {
            None
        };
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
        program: Program::current(),
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
