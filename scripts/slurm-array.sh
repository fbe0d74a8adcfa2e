#!/usr/bin/env bash
# Runs one `bench run` experiment as a Slurm job array: task i runs shard i+1 of N, then a
# dependent job merges the shard CSVs. Each task is one process on one node (the harness uses
# that node's cores itself); a requeued or re-submitted task resumes its shard (--resume).
#
# Usage (from the repository, after `cargo build --release`):
#
#   scripts/slurm-array.sh submit N OUTDIR [bench run options...]
#
#   e.g. scripts/slurm-array.sh submit 8 results/korf-lc \
#            --instances instances/korf100 --algos idastar --heuristics manhattan,linear-conflict
#
# which submits
#   - an array of N tasks: `bench run OPTIONS --shard K/N --out OUTDIR/shard-K-of-N.csv --resume`
#     with --threads from the allocation (SLURM_CPUS_PER_TASK) and, unless OPTIONS give
#     --max-memory, 70% of the allocated memory divided by the threads;
#   - a merge job (afterok on the whole array):
#     `bench merge OUTDIR/shard-*-of-N.csv --out OUTDIR/merged.csv`.
# Pass sbatch options (partition, account, time, cpus, memory) in SBATCH_ARGS, e.g.
#   SBATCH_ARGS="--partition=short --time=02:00:00 --cpus-per-task=16 --mem=32G" scripts/...
# The job-order seed is fixed (--seed 1) unless OPTIONS give one, so a resubmission runs the
# same shard the same way. The modes `task` and `merge` are what the submitted jobs run.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$HERE")"
BENCH="${BENCH:-$ROOT/target/release/bench}"

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2; exit 2; }

mode="${1:-}"; shift || true
case "$mode" in
submit)
    [ $# -ge 2 ] || usage
    n="$1"; outdir="$2"; shift 2
    [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "N must be a positive integer, got '$n'" >&2; exit 2; }
    mkdir -p "$outdir/logs"
    # shellcheck disable=SC2086
    array_id=$(sbatch --parsable ${SBATCH_ARGS:-} --job-name=bench-run --array=0-$((n - 1)) \
        --output="$outdir/logs/shard-%a.log" "$0" task "$n" "$outdir" "$@")
    # shellcheck disable=SC2086
    merge_id=$(sbatch --parsable ${SBATCH_ARGS:-} --job-name=bench-merge --dependency=afterok:"$array_id" \
        --ntasks=1 --output="$outdir/logs/merge.log" "$0" merge "$n" "$outdir")
    echo "submitted array $array_id ($n shards) and merge job $merge_id; results: $outdir/merged.csv"
    ;;
task)
    [ $# -ge 2 ] || usage
    n="$1"; outdir="$2"; shift 2
    : "${SLURM_ARRAY_TASK_ID:?task mode runs inside a Slurm array job}"
    k=$((SLURM_ARRAY_TASK_ID + 1))
    threads="${SLURM_CPUS_PER_TASK:-$(nproc)}"
    extra=(--threads "$threads")
    case " $* " in *" --seed "*) ;; *) extra+=(--seed 1) ;; esac
    case " $* " in
    *" --max-memory "*) ;;
    *)  # Slurm gives MiB: per node, or per CPU.
        if [ -n "${SLURM_MEM_PER_NODE:-}" ]; then mib="$SLURM_MEM_PER_NODE"
        elif [ -n "${SLURM_MEM_PER_CPU:-}" ]; then mib=$((SLURM_MEM_PER_CPU * threads))
        else mib=""; fi
        [ -n "$mib" ] && extra+=(--max-memory "$((mib * 7 / 10 / threads))MiB")
        ;;
    esac
    exec "$BENCH" run "$@" "${extra[@]}" --shard "$k/$n" \
        --out "$outdir/shard-$k-of-$n.csv" --resume --quiet
    ;;
merge)
    [ $# -eq 2 ] || usage
    n="$1"; outdir="$2"
    shards=()
    for k in $(seq 1 "$n"); do
        f="$outdir/shard-$k-of-$n.csv"
        [ -f "$f" ] || { echo "missing $f: shard $k did not run" >&2; exit 1; }
        shards+=("$f")
    done
    exec "$BENCH" merge "${shards[@]}" --out "$outdir/merged.csv"
    ;;
*) usage ;;
esac
