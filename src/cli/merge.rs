//! `bench merge`: joins the CSVs of one experiment's shards (or resumed pieces) into one file,
//! checking that every input has the results header and that no job appears twice.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;
use serde::Serialize;

use crate::harness::meta::{self, Meta, Program};
use crate::harness::output::WriteError;
use crate::harness::record::{self, JobKey, RowWriter, SCHEMA_VERSION};

/// Arguments of `bench merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The CSVs to join (e.g. one per shard).
    #[arg(required = true, value_name = "CSV")]
    pub inputs: Vec<PathBuf>,
    /// The merged CSV (`-` for stdout); must not exist yet. Its metadata, listing the inputs
    /// and their own metadata, goes to <FILE>.meta.json.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// One input of a merge, as recorded in the merged metadata.
#[derive(Debug, Serialize)]
struct MergedInput {
    file: String,
    sha256: String,
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

fn first_line(path: &Path) -> anyhow::Result<String> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut line = String::new();
    BufReader::new(file)
        .read_line(&mut line)
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(line.trim_end_matches(['\n', '\r']).to_string())
}

/// Runs `bench merge`; returns the exit status.
pub fn run(args: MergeArgs) -> anyhow::Result<i32> {
    let to_stdout = args.out == Path::new("-");
    if !to_stdout && args.out.exists() {
        bail!(
            "--out: {} already exists; choose a new file",
            args.out.display()
        );
    }
    // Headers first: all identical (and the results schema).
    let header = first_line(&args.inputs[0])?;
    for p in &args.inputs[1..] {
        let h = first_line(p)?;
        if h != header {
            bail!(
                "{}: its header differs from {}'s, so the files are not shards of one results \
                 schema:\n  {}: {h}\n  {}: {header}",
                p.display(),
                args.inputs[0].display(),
                p.display(),
                args.inputs[0].display()
            );
        }
    }
    let mut seen: HashMap<JobKey, (usize, u64)> = HashMap::new();
    let mut files = Vec::new();
    for (i, p) in args.inputs.iter().enumerate() {
        let results = record::read_results(p, false)?;
        for (line, row) in &results.rows {
            if let Some((fi, fl)) = seen.insert(row.key(), (i, *line)) {
                bail!(
                    "{}:{line}: job {} is already in {}:{fl}; the inputs overlap (the same shard \
                     twice, or shards of different runs?)",
                    p.display(),
                    row.key(),
                    args.inputs[fi].display()
                );
            }
        }
        files.push(results);
    }
    let write_error = |error| WriteError {
        path: args.out.clone(),
        error,
    };
    let mut writer = if to_stdout {
        RowWriter::stdout()
    } else {
        File::create(&args.out).and_then(|f| RowWriter::append(f, &Default::default()))
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
    if !to_stdout {
        let mut inputs = Vec::new();
        for (p, f) in args.inputs.iter().zip(&files) {
            let mp = meta::sidecar_path(p);
            let input_meta = if mp.exists() {
                Some(Meta::read(&mp)?)
            } else {
                None
            };
            inputs.push(MergedInput {
                file: p.display().to_string(),
                sha256: meta::sha256_file(p)
                    .with_context(|| format!("cannot read {}", p.display()))?,
                rows: f.rows.len(),
                meta: input_meta,
            });
        }
        let merged = MergedMeta {
            schema_version: SCHEMA_VERSION,
            merged_at: meta::now_rfc3339(),
            program: Program::current(),
            command_line: std::env::args().collect(),
            rows: total,
            inputs,
        };
        let mp = meta::sidecar_path(&args.out);
        let text = serde_json::to_string_pretty(&merged)? + "\n";
        std::fs::write(&mp, text).map_err(|error| WriteError {
            path: mp.clone(),
            error,
        })?;
        eprintln!(
            "merged {total} rows from {} file(s) into {} (metadata: {})",
            args.inputs.len(),
            args.out.display(),
            mp.display()
        );
    }
    Ok(0)
}
