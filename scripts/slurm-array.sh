#!/usr/bin/env bash
# Runs one `bench run` experiment as a Slurm job array: task K runs shard K of N, a dependent
# job merges the shard CSVs, and (with pattern-database heuristics) a prepare job first builds
# the databases once into a shared cache directory. docs/cluster.md is the guide.
#
# Usage (from any directory on a filesystem the compute nodes share, after
# `cargo build --release`):
#
#   scripts/slurm-array.sh submit N OUTDIR [bench run options...]
#   scripts/slurm-array.sh status OUTDIR
#   scripts/slurm-array.sh resubmit OUTDIR [K...]
#
#   e.g. SBATCH_ARGS="--partition=short --time=02:00:00 --cpus-per-task=16 --mem=32G" \
#        scripts/slurm-array.sh submit 8 results/korf-lc \
#            --instances instances/korf100 --algos idastar --heuristics manhattan,linear-conflict
#
# submit checks everything it can before submitting anything (the binary exists and runs, the
# instance files exist, OUTDIR is new), resolves every path once and writes them to
# OUTDIR/experiment.env, which the jobs read (sbatch runs a copy of this script from slurmd's
# spool directory, so the jobs cannot find anything relative to the script). It submits
#   - with a pdb heuristic, a prepare job: `bench pdb build --instances ... --heuristics ...`
#     into the cache directory (--pdb-dir, else $NPUZZLE_PDB_DIR, else ~/.cache/npuzzle/pdb,
#     made absolute and passed to every job); the array starts after it succeeds (afterok) and
#     is cancelled if it fails;
#   - an array of N tasks, task K: `bench run OPTIONS --shard K/N --out OUTDIR/shard-K-of-N.csv
#     --resume --quiet`, run in the submit directory, with --threads from the allocation
#     (SLURM_CPUS_PER_TASK) and, unless OPTIONS give --max-memory, 70% of the allocated memory
#     divided by the threads; the seed of the job order is fixed (--seed 1 unless given);
#   - a merge job after every task has ended, however (afterany): it merges the shards into
#     OUTDIR/merged.csv if every shard's session is `complete`, else fails naming each missing
#     or unfinished shard.
# status prints, per shard, the rows written, the session state and the Slurm state; resubmit
# submits again the shards that are not complete and not queued (or the shards K given) with
# --resume, so they keep their rows and run only the missing jobs, plus a new merge job.
# Logs: OUTDIR/logs/{prepare,shard-K,merge}.log (appended to by resubmissions).
#
# Environment: BENCH (the binary; default target/release/bench of this checkout), SBATCH_ARGS
# (sbatch options of every job: partition, account, time, cpus, memory; on resubmit, appended to
# the recorded ones, so a longer --time can be given), PREPARE_SBATCH_ARGS (added for the prepare
# job, e.g. more memory), MERGE_SBATCH_ARGS (added for the merge job; default
# --cpus-per-task=1), MAX_RUNNING (at most this many shards at once: --array=1-N%M).
# The modes `prepare`, `task` and `merge` are what the submitted jobs run.
set -euo pipefail

die() { echo "slurm-array: $*" >&2; exit 1; }
warn() { echo "slurm-array: warning: $*" >&2; }
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2; exit 2; }

# quote ARGS...: the arguments as one line of shell words.
quote() { [ $# -eq 0 ] || printf ' %q' "$@"; }

# load OUTDIR: reads the experiment written by submit.
load() {
    local env="$1/experiment.env"
    [ -r "$env" ] || die "$env not found: $1 is not an experiment directory made by '$(basename "$0") submit' (or not visible on $(hostname))"
    # shellcheck source=/dev/null
    . "$env"
}

shard_csv() { echo "$OUTDIR/shard-$1-of-$N.csv"; }

# session_status CSV: the status of the last session in CSV's sidecar ("none" without one).
session_status() {
    local m="$1.meta.json"
    [ -f "$m" ] || { echo none; return; }
    grep -o '"status": *"[a-z-]*"' "$m" | tail -1 | sed 's/.*"\([a-z-]*\)"$/\1/'
}

# planned CSV: jobs in the shard's plan, from the sidecar.
planned() { grep -o '"jobs_planned": *[0-9]*' "$1.meta.json" 2>/dev/null | grep -o '[0-9]*$' || echo '?'; }

# rows CSV: data rows in a results file.
rows() { if [ -f "$1" ]; then awk 'END { print (NR > 0 ? NR - 1 : 0) }' "$1"; else echo 0; fi; }

# active: "JOBID STATE REASON" for every queued or running job of the experiment, array tasks
# expanded as ARRAYID_K.
active() {
    [ -f "$OUTDIR/jobs" ] || return 0
    local id
    for id in $(awk '{ print $2 }' "$OUTDIR/jobs"); do
        squeue -h -r -j "$id" -o '%i %T %r' 2>/dev/null || true
    done
}

# local_path PATH: whether PATH is probably on a filesystem only this machine sees.
local_path() {
    case "$(realpath -m "$1")" in /tmp/*|/var/tmp/*|/dev/shm/*|/run/*) return 0 ;; esac
    [ "$(stat -f -c %T "$1" 2>/dev/null)" = tmpfs ]
}

# sbatch_array: SB (the recorded SBATCH_ARGS plus the current ones) as an array.
sbatch_array() { read -r -a SB <<<"${SBATCH_ARGS_RECORDED:-} ${SBATCH_ARGS:-}"; }

submit_prepare() {
    local extra; read -r -a extra <<<"${PREPARE_SBATCH_ARGS:-}"
    sbatch --parsable "${SB[@]}" "${extra[@]}" --job-name=bench-prepare --open-mode=append \
        --output="$OUTDIR/logs/prepare.log" "$SCRIPT" prepare "$OUTDIR" | cut -d';' -f1
}

# submit_array SPEC [DEPENDENCY]: the shard tasks SPEC (1-8, 2,5, ...).
submit_array() {
    local spec=$1 dep=${2:-}
    local opts=(--job-name=bench-run --array="$spec${MAX_RUNNING:+%$MAX_RUNNING}" --open-mode=append
        --output="$OUTDIR/logs/shard-%a.log")
    [ -z "$dep" ] || opts+=(--dependency="afterok:$dep" --kill-on-invalid-dep=yes)
    sbatch --parsable "${SB[@]}" "${opts[@]}" "$SCRIPT" task "$OUTDIR" | cut -d';' -f1
}

# submit_merge [JOBIDS]: the merge job, after JOBIDS (colon-separated) have ended.
submit_merge() {
    local extra dep=()
    read -r -a extra <<<"${MERGE_SBATCH_ARGS:---cpus-per-task=1}"
    [ -z "${1:-}" ] || dep=(--dependency="afterany:$1")
    sbatch --parsable "${SB[@]}" "${extra[@]}" "${dep[@]}" --job-name=bench-merge \
        --open-mode=append --output="$OUTDIR/logs/merge.log" "$SCRIPT" merge "$OUTDIR" | cut -d';' -f1
}

submit() {
    [ $# -ge 2 ] || usage
    local n=$1 outdir=$2; shift 2
    [[ "$n" =~ ^[1-9][0-9]*$ ]] || die "N must be a positive integer, got '$n'"
    command -v sbatch >/dev/null || die "sbatch not found: run this on a Slurm submit (login) node"
    local max
    max=$(scontrol show config 2>/dev/null | awk '$1 == "MaxArraySize" { print $3 }')
    [ -z "$max" ] || [ "$n" -lt "$max" ] || die "N = $n shards, but this cluster's MaxArraySize is $max (task ids 1..N must be below it); use fewer shards"

    # The binary: resolved now, checked to run.
    local here bench
    here="$(cd "$(dirname "$0")" && pwd)"
    bench="${BENCH:-$(dirname "$here")/target/release/bench}"
    [ -e "$bench" ] || die "$bench does not exist: build it with 'cargo build --release' (or set BENCH to a built bench binary)"
    bench=$(realpath "$bench")
    [ -x "$bench" ] && "$bench" --version >/dev/null 2>&1 || die "$bench does not run here (BENCH must be a bench binary built for these machines)"

    # The options: instance files and the cache directory checked and resolved; what the script
    # sets itself refused.
    local args=() files=() heuristics="manhattan" pdb_dir="" has_seed="" a
    while [ $# -gt 0 ]; do
        a=$1; shift
        case "$a" in
        --out|--out=*|--shard|--shard=*|--resume|--force|--resume-anyway|-q|--quiet)
            die "option $a: the script sets --out, --shard, --resume and --quiet of each task itself" ;;
        --pdb-dir) [ $# -gt 0 ] || die "--pdb-dir needs a directory"; pdb_dir=$1; shift; continue ;;
        --pdb-dir=*) pdb_dir=${a#*=}; continue ;;
        --instances)
            args+=("$a")
            while [ $# -gt 0 ] && [[ "$1" != -* ]]; do files+=("$1"); args+=("$1"); shift; done
            continue ;;
        --instances=*) files+=("${a#*=}") ;;
        --heuristics) [ $# -gt 0 ] && heuristics=$1 ;;
        --heuristics=*) heuristics=${a#*=} ;;
        --seed|--seed=*) has_seed=1 ;;
        esac
        args+=("$a")
    done
    [ ${#files[@]} -gt 0 ] || die "give --instances FILE...: every task must run the same instance files (the default, the newest file in instances/, could change between submit and run)"
    local f
    for f in "${files[@]}"; do
        [ -f "$f" ] && [ -r "$f" ] || die "--instances: $f is not a readable file (relative to $PWD)"
    done
    [ -n "$has_seed" ] || args+=(--seed 1)

    local uses_pdb=""
    case ",$heuristics," in *,pdb,*|*,pdb:*) uses_pdb=1 ;; esac
    local global=()
    if [ -z "$pdb_dir" ] && [ -n "$uses_pdb" ]; then
        if [ "${NPUZZLE_PDB_DIR:-}" = off ]; then
            warn "NPUZZLE_PDB_DIR=off: every task builds its pattern databases in memory (no prepare job)"
            uses_pdb=""
        elif [ -n "${NPUZZLE_PDB_DIR:-}" ]; then pdb_dir=$NPUZZLE_PDB_DIR
        else pdb_dir="${XDG_CACHE_HOME:-$HOME/.cache}/npuzzle/pdb"; fi
    fi
    if [ -n "$pdb_dir" ]; then
        mkdir -p "$pdb_dir" || die "--pdb-dir: cannot create $pdb_dir"
        pdb_dir=$(realpath "$pdb_dir")
        global=(--pdb-dir "$pdb_dir")
    fi

    local pdb_args=()
    if [ -n "$uses_pdb" ]; then
        pdb_args=(--instances "${files[@]}" --heuristics "$heuristics")
        local i
        for ((i = 0; i < ${#args[@]}; i++)); do
            case "${args[i]}" in
            --goal) pdb_args+=(--goal "${args[i + 1]}") ;;
            --goal=*) pdb_args+=("${args[i]}") ;;
            esac
        done
    fi

    # The shards' pattern databases exist for the files' boards (no table is built here).
    if [ ${#pdb_args[@]} -gt 0 ]; then
        local msg
        msg=$("$bench" "${global[@]}" pdb info "${pdb_args[@]}" 2>&1 >/dev/null) \
            || die "the pattern databases of this run cannot be made: ${msg#error: }"
    fi

    # The experiment directory: new.
    mkdir -p "$outdir" || die "cannot create $outdir"
    outdir=$(realpath "$outdir")
    [ ! -e "$outdir/experiment.env" ] || die "$outdir already holds an experiment (see '$0 status $outdir', '$0 resubmit $outdir'); choose a new OUTDIR"
    mkdir -p "$outdir/logs"

    # Paths the compute nodes must see: warn when they probably cannot (a cluster whose only node
    # is this machine sees everything).
    local nodes host
    host=$(hostname -s)
    nodes=$(sinfo -h -N -o %N 2>/dev/null | sort -u | tr '\n' ' ')
    if [ "$nodes" != "$host " ]; then
        for f in "$bench" "$outdir" "$PWD" ${pdb_dir:+"$pdb_dir"} "${files[@]}"; do
            ! local_path "$f" || warn "$f is on a filesystem local to $host (tmp or tmpfs): compute nodes usually cannot see it; use a shared filesystem (home, project or scratch)"
        done
    fi

    {
        echo "# The experiment, written by slurm-array.sh submit on $(date -u '+%Y-%m-%d %H:%M UTC'); its jobs source it."
        printf 'BENCH=%q\nN=%q\nOUTDIR=%q\nSUBMIT_DIR=%q\nSCRIPT=%q\n' "$bench" "$n" "$outdir" "$PWD" "$(realpath "$0")"
        printf 'SBATCH_ARGS_RECORDED=%q\n' "${SBATCH_ARGS:-}"
        echo "GLOBAL_ARGS=($(quote "${global[@]}") )"
        echo "RUN_ARGS=($(quote "${args[@]}") )"
        echo "PDB_ARGS=($(quote "${pdb_args[@]}") )"
    } >"$outdir/experiment.env.new"
    mv "$outdir/experiment.env.new" "$outdir/experiment.env"

    load "$outdir"
    SBATCH_ARGS_RECORDED=""   # SB from the current environment only
    sbatch_array
    local prep="" array merge
    if [ ${#PDB_ARGS[@]} -gt 0 ]; then
        prep=$(submit_prepare) || die "sbatch refused the prepare job (options: ${SB[*]})"
        echo "prepare $prep" >>"$OUTDIR/jobs"
    fi
    array=$(submit_array "1-$N" "$prep") || die "sbatch refused the array (options: ${SB[*]})"
    echo "array $array 1-$N" >>"$OUTDIR/jobs"
    merge=$(submit_merge "$array") || die "sbatch refused the merge job"
    echo "merge $merge" >>"$OUTDIR/jobs"
    echo "submitted${prep:+ prepare job $prep,} array $array ($N shards), merge job $merge"
    echo "follow with: $SCRIPT status $OUTDIR; results: $OUTDIR/merged.csv"
}

# In a job: the experiment, the submit directory, the binary.
job_setup() {
    load "$1"
    cd "$SUBMIT_DIR" 2>/dev/null || die "submit directory $SUBMIT_DIR is not visible on $(hostname): submit from a shared filesystem"
    [ -x "$BENCH" ] || die "$BENCH not found on $(hostname): build bench on a filesystem the compute nodes share, or set BENCH"
}

task() {
    [ $# -eq 1 ] || usage
    : "${SLURM_ARRAY_TASK_ID:?task mode runs inside a Slurm array job}"
    job_setup "$1"
    local k=$SLURM_ARRAY_TASK_ID threads extra=() mib=""
    threads="${SLURM_CPUS_PER_TASK:-$(nproc)}"
    case " ${RUN_ARGS[*]} " in *" --threads "*|*" --threads="*) ;; *) extra+=(--threads "$threads") ;; esac
    case " ${RUN_ARGS[*]} " in
    *" --max-memory "*|*" --max-memory="*) ;;
    *)  # Slurm gives MiB: per node, or per CPU.
        if [ -n "${SLURM_MEM_PER_NODE:-}" ]; then mib="$SLURM_MEM_PER_NODE"
        elif [ -n "${SLURM_MEM_PER_CPU:-}" ]; then mib=$((SLURM_MEM_PER_CPU * threads)); fi
        [ -z "$mib" ] || [ "$mib" -eq 0 ] || extra+=(--max-memory "$((mib * 7 / 10 / threads))MiB") ;;
    esac
    echo "shard $k/$N: job ${SLURM_ARRAY_JOB_ID:-?}_$k on $(hostname) at $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $threads threads${mib:+, $mib MiB}"
    # exec: bench itself receives Slurm's SIGTERM (scancel, time limit) and ends its session
    # as `interrupted`, keeping every finished row.
    exec "$BENCH" "${GLOBAL_ARGS[@]}" run "${RUN_ARGS[@]}" "${extra[@]}" --shard "$k/$N" \
        --out "$(shard_csv "$k")" --resume --quiet
}

prepare() {
    [ $# -eq 1 ] || usage
    job_setup "$1"
    rm -f "$OUTDIR/prepare.ok"
    echo "prepare on $(hostname) at $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    "$BENCH" "${GLOBAL_ARGS[@]}" pdb build "${PDB_ARGS[@]}"
    touch "$OUTDIR/prepare.ok"
}

merge() {
    [ $# -eq 1 ] || usage
    job_setup "$1"
    echo "merge on $(hostname) at $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    local k f st problems=() shards=()
    for k in $(seq 1 "$N"); do
        f=$(shard_csv "$k")
        st=$(session_status "$f")
        if [ ! -f "$f" ]; then
            problems+=("shard $k: missing $f (the task did not start or failed before writing; log $OUTDIR/logs/shard-$k.log)")
        elif [ "$st" != complete ]; then
            problems+=("shard $k: session '$st', $(rows "$f") of $(planned "$f") jobs written (log $OUTDIR/logs/shard-$k.log)")
        fi
        shards+=("$f")
    done
    if [ ${#problems[@]} -gt 0 ]; then
        echo "merge: not merging, ${#problems[@]} of $N shards not complete:" >&2
        printf '  %s\n' "${problems[@]}" >&2
        if [ ${#PDB_ARGS[@]} -gt 0 ] && [ ! -e "$OUTDIR/prepare.ok" ]; then
            echo "  the prepare job did not succeed (log $OUTDIR/logs/prepare.log)" >&2
        fi
        echo "fix the cause, then: $SCRIPT resubmit $OUTDIR" >&2
        exit 1
    fi
    rm -f "$OUTDIR/merged.csv" "$OUTDIR/merged.csv.meta.json"
    exec "$BENCH" merge "${shards[@]}" --out "$OUTDIR/merged.csv"
}

status() {
    [ $# -eq 1 ] || usage
    load "$1"
    local act k f st slurm
    act=$(active)
    printf '%-8s %-14s %-12s %s\n' shard "rows/planned" session slurm
    for k in $(seq 1 "$N"); do
        f=$(shard_csv "$k")
        st=$(session_status "$f")
        slurm=$(awk -v k="$k" '$1 ~ "_" k "$" { print $2 " (" $1 (NF > 2 && $3 != "None" ? ", " $3 : "") ")"; exit }' <<<"$act")
        printf '%-8s %-14s %-12s %s\n' "$k/$N" "$(rows "$f")/$(planned "$f")" "$st" "${slurm:--}"
    done
    local id
    for id in $(awk '$1 == "prepare" || $1 == "merge" { print $1 ":" $2 }' "$OUTDIR/jobs"); do
        slurm=$(awk -v j="${id#*:}" '$1 == j { print $2 (NF > 2 && $3 != "None" ? " (" $3 ")" : ""); exit }' <<<"$act")
        [ -z "$slurm" ] || echo "${id%%:*} job ${id#*:}: $slurm"
    done
    if [ -f "$OUTDIR/merged.csv" ]; then
        echo "merged: $OUTDIR/merged.csv, $(rows "$OUTDIR/merged.csv") rows"
    else
        echo "merged: not yet ($OUTDIR/logs/merge.log says why once the merge job has run)"
    fi
}

resubmit() {
    [ $# -ge 1 ] || usage
    load "$1"; shift
    local act k todo=() busy
    act=$(active)
    busy() { awk -v k="$1" '$1 ~ "_" k "$" { found = 1 } END { exit !found }' <<<"$act"; }
    if [ $# -gt 0 ]; then
        for k in "$@"; do
            [[ "$k" =~ ^[0-9]+$ ]] && [ "$k" -ge 1 ] && [ "$k" -le "$N" ] || die "shard '$k': expected a number from 1 to $N"
            ! busy "$k" || die "shard $k is still queued or running ($(awk -v k="$k" '$1 ~ "_" k "$" { print $1 }' <<<"$act")); scancel it first"
            todo+=("$k")
        done
    else
        for k in $(seq 1 "$N"); do
            [ "$(session_status "$(shard_csv "$k")")" != complete ] || continue
            busy "$k" && continue
            todo+=("$k")
        done
    fi
    sbatch_array
    # A merge job still waiting would merge before the resubmitted shards finish: cancel it.
    local id
    for id in $(awk '$1 == "merge" { print $2 }' "$OUTDIR/jobs"); do
        if awk -v j="$id" '$1 == j && $2 == "PENDING" { f = 1 } END { exit !f }' <<<"$act"; then
            scancel "$id" && echo "cancelled the waiting merge job $id"
        fi
    done
    local prep="" array="" after
    if [ ${#todo[@]} -gt 0 ]; then
        if [ ${#PDB_ARGS[@]} -gt 0 ] && [ ! -e "$OUTDIR/prepare.ok" ]; then
            prep=$(submit_prepare) || die "sbatch refused the prepare job"
            echo "prepare $prep" >>"$OUTDIR/jobs"
        fi
        local spec; spec=$(IFS=,; echo "${todo[*]}")
        array=$(submit_array "$spec" "$prep") || die "sbatch refused the array"
        echo "array $array $spec" >>"$OUTDIR/jobs"
        echo "resubmitted shards $spec as array $array${prep:+ after prepare job $prep}"
    else
        echo "no shard to resubmit (every shard is complete or still queued)"
    fi
    # The merge waits for the new tasks and every task still queued or running.
    after=$( { [ -z "$array" ] || echo "$array"; awk '$1 ~ /_/ { sub(/_.*/, "", $1); print $1 }' <<<"$act"; } | sort -u | paste -sd:)
    local merge
    merge=$(submit_merge "$after") || die "sbatch refused the merge job"
    echo "merge $merge" >>"$OUTDIR/jobs"
    echo "merge job $merge${after:+ after $after}"
}

mode="${1:-}"; shift || true
case "$mode" in
submit) submit "$@" ;;
status) status "$@" ;;
resubmit) resubmit "$@" ;;
task) task "$@" ;;
prepare) prepare "$@" ;;
merge) merge "$@" ;;
*) usage ;;
esac
