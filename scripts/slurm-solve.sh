#!/usr/bin/env bash
# Solves ONE instance with IDA* split into N pieces on Slurm (`bench split`, docs/split.md): a
# plan job expands the start to a frontier and divides it, an array of N tasks runs the pieces
# (task K: `bench split piece --piece K`), and a combine job writes the answer. The pieces talk
# only through their files in OUTDIR (a directory every node sees).
#
# Usage (from a directory on a shared filesystem, after `cargo build --release`):
#
#   scripts/slurm-solve.sh --instances FILE --id ID --pieces N --out OUTDIR [options]
#   scripts/slurm-solve.sh status OUTDIR
#   scripts/slurm-solve.sh resubmit OUTDIR [--no-wait]
#
#   e.g. SBATCH_ARGS="--partition=long --time=2-00:00:00 --cpus-per-task=1 --mem=8G" \
#        scripts/slurm-solve.sh --instances korf24.tsv --id 1 --pieces 1000 --out runs/k24-1 \
#            --algos idastar-fsm --heuristics pdb:6-6-6-6 --goal blank-first --pdb-dir ~/pdb
#
# Options as bench run spells them: --algos ALGO (one: idastar or idastar-fsm; default
# idastar), --heuristics H (one; default manhattan), --goal GOAL, --timeout DURATION (per piece
# session), --max-nodes N (per piece session), --max-memory SIZE, --pdb-dir DIR; for the plan
# --frontier N, --probe-nodes N, --any-optimal, --queue (bench split plan --help); for the pieces
# --no-lockstep, --stale-after DURATION (bench split piece --help). --no-wait returns after
# submitting; otherwise the script waits for the combine job and prints the result.
#
# Results: OUTDIR/result.csv (one row of the results schema), OUTDIR/iterations.csv
# (bound,generated,expanded,pieces_completed,pieces), OUTDIR/pieces.csv (per piece: state,
# nodes, CPU and wall time). Logs: OUTDIR/logs/{plan,piece-K,combine}.log.
# status prints the pieces' states and Slurm states; resubmit submits again every piece whose
# file is not final (never run, killed, cancelled, stopped by a limit) and is not queued or
# running, then a new combine job: finished bounds are kept, finished pieces are not rerun.
# Environment: BENCH (default target/release/bench of this checkout), SBATCH_ARGS (options of
# every job; on resubmit appended to the recorded ones), PLAN_SBATCH_ARGS (added for the plan
# job, e.g. the memory a pattern database build needs), MAX_RUNNING (--array=1-N%M).
# The modes plan, piece and combine are what the submitted jobs run.
set -euo pipefail

die() { echo "slurm-solve: $*" >&2; exit 1; }
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2; exit 2; }
quote() { [ $# -eq 0 ] || printf ' %q' "$@"; }

load() {
    local env="$1/solve.env"
    [ -r "$env" ] || die "$env not found: $1 is not a directory made by $(basename "$0")"
    # shellcheck source=/dev/null
    . "$env"
}
sbatch_array() { read -r -a SB <<<"${SBATCH_ARGS_RECORDED:-} ${SBATCH_ARGS:-}"; }

# piece_state K: the state in piece K's file ("none" without one).
piece_state() {
    local f="$OUTDIR/piece-$1.json"
    [ -f "$f" ] || { echo none; return; }
    grep -o '"state": *"[a-z-]*"' "$f" | head -1 | sed 's/.*"\([a-z-]*\)"$/\1/'
}
is_final() { case "$1" in solved|covered|exhausted) return 0 ;; *) return 1 ;; esac; }

# active: "JOBID STATE" of every queued or running job of the run, array tasks as ID_K.
active() {
    [ -f "$OUTDIR/jobs" ] || return 0
    local id
    for id in $(awk '{ print $2 }' "$OUTDIR/jobs"); do
        squeue -h -r -j "$id" -o '%i %T' 2>/dev/null || true
    done
}

submit_array() {
    local spec=$1 dep=${2:-}
    local opts=(--job-name=split-piece --array="$spec${MAX_RUNNING:+%$MAX_RUNNING}" --open-mode=append
        --output="$OUTDIR/logs/piece-%a.log")
    [ -z "$dep" ] || opts+=(--dependency="afterok:$dep" --kill-on-invalid-dep=yes)
    sbatch --parsable "${SB[@]}" "${opts[@]}" "$SCRIPT" piece "$OUTDIR" | cut -d';' -f1
}
submit_combine() {
    sbatch --parsable "${SB[@]}" --cpus-per-task=1 --dependency="afterany:$1" --job-name=split-combine \
        --open-mode=append --output="$OUTDIR/logs/combine.log" "$SCRIPT" combine "$OUTDIR" | cut -d';' -f1
}

# wait_and_report: until no job of the run is queued or running; then the result.
wait_and_report() {
    while [ -n "$(active)" ]; do sleep 2; done
    if [ -f "$OUTDIR/result.csv" ]; then
        cat "$OUTDIR/logs/combine.log" >&2 || true
        local st
        st=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["status"] }' "$OUTDIR/result.csv")
        [ "$st" = solved ] || die "not solved ($st): see $OUTDIR/result.csv; '$(basename "$0") resubmit $OUTDIR' reruns the unfinished pieces"
    else
        die "no result: see $OUTDIR/logs/"
    fi
}

submit() {
    local instances="" id="" pieces="" outdir="" nowait="" pdb_dir="" plan_args=() piece_args=() a
    while [ $# -gt 0 ]; do
        a=$1; shift
        case "$a" in
        --instances|--id|--pieces|--out|--pdb-dir|--algos|--heuristics|--goal|--frontier|--probe-nodes|--timeout|--max-nodes|--max-memory|--stale-after)
            [ $# -gt 0 ] || die "$a needs a value" ;;
        esac
        case "$a" in
        --instances) instances=$1; shift ;;
        --id) id=$1; shift ;;
        --pieces) pieces=$1; shift ;;
        --out) outdir=$1; shift ;;
        --pdb-dir) pdb_dir=$1; shift ;;
        --algos|--heuristics|--goal|--frontier|--probe-nodes) plan_args+=("$a" "$1"); shift ;;
        --any-optimal|--queue) plan_args+=("$a") ;;
        --timeout|--max-nodes|--max-memory|--stale-after) piece_args+=("$a" "$1"); shift ;;
        --no-lockstep) piece_args+=("$a") ;;
        --no-wait) nowait=1 ;;
        *) die "unknown option $a (see $(basename "$0") --help)" ;;
        esac
    done
    [ -n "$instances" ] && [ -n "$id" ] && [ -n "$pieces" ] && [ -n "$outdir" ] || usage
    [[ "$pieces" =~ ^[1-9][0-9]*$ ]] || die "--pieces must be a positive integer, got '$pieces'"
    [ -f "$instances" ] && [ -r "$instances" ] || die "--instances: $instances is not a readable file (relative to $PWD)"
    command -v sbatch >/dev/null || die "sbatch not found: run this on a Slurm submit (login) node"
    local here bench
    here="$(cd "$(dirname "$0")" && pwd)"
    bench="${BENCH:-$(dirname "$here")/target/release/bench}"
    [ -e "$bench" ] || die "$bench does not exist: build it with 'cargo build --release' (or set BENCH)"
    bench=$(realpath "$bench")
    "$bench" --version >/dev/null 2>&1 || die "$bench does not run here"
    local global=()
    if [ -n "$pdb_dir" ]; then
        mkdir -p "$pdb_dir" || die "--pdb-dir: cannot create $pdb_dir"
        global=(--pdb-dir "$(realpath "$pdb_dir")")
    fi
    mkdir -p "$outdir" || die "cannot create $outdir"
    outdir=$(realpath "$outdir")
    [ ! -e "$outdir/solve.env" ] || die "$outdir already holds a run (see '$0 status $outdir', '$0 resubmit $outdir')"
    mkdir -p "$outdir/logs"
    {
        echo "# Written by slurm-solve.sh on $(date -u '+%Y-%m-%d %H:%M UTC'); the jobs source it."
        printf 'BENCH=%q\nPIECES=%q\nOUTDIR=%q\nSCRIPT=%q\n' "$bench" "$pieces" "$outdir" "$(realpath "$0")"
        printf 'SBATCH_ARGS_RECORDED=%q\n' "${SBATCH_ARGS:-}"
        echo "GLOBAL_ARGS=($(quote "${global[@]}") )"
        echo "PLAN_ARGS=($(quote --instances "$(realpath "$instances")" --id "$id" --pieces "$pieces" "${plan_args[@]}") )"
        echo "PIECE_ARGS=($(quote "${piece_args[@]}") )"
    } >"$outdir/solve.env.new"
    mv "$outdir/solve.env.new" "$outdir/solve.env"
    load "$outdir"
    SBATCH_ARGS_RECORDED=""
    sbatch_array
    local extra plan array combine
    read -r -a extra <<<"${PLAN_SBATCH_ARGS:-}"
    plan=$(sbatch --parsable "${SB[@]}" "${extra[@]}" --job-name=split-plan --open-mode=append \
        --output="$OUTDIR/logs/plan.log" "$SCRIPT" plan "$OUTDIR" | cut -d';' -f1) || die "sbatch refused the plan job"
    echo "plan $plan" >>"$OUTDIR/jobs"
    array=$(submit_array "1-$PIECES" "$plan") || die "sbatch refused the array"
    echo "array $array 1-$PIECES" >>"$OUTDIR/jobs"
    combine=$(submit_combine "$array") || die "sbatch refused the combine job"
    echo "combine $combine" >>"$OUTDIR/jobs"
    echo "plan job $plan, pieces 1-$PIECES as array $array, combine job $combine; results in $OUTDIR"
    [ -n "$nowait" ] || wait_and_report
}

status() {
    [ $# -eq 1 ] || usage
    load "$1"
    local act k
    act=$(active)
    printf '%-6s %-10s %s\n' piece state slurm
    for k in $(seq 1 "$PIECES"); do
        printf '%-6s %-10s %s\n' "$k" "$(piece_state "$k")" \
            "$(awk -v k="$k" '$1 ~ "_" k "$" { print $2; exit }' <<<"$act")"
    done
    [ ! -f "$OUTDIR/result.csv" ] || echo "result: $OUTDIR/result.csv"
}

resubmit() {
    [ $# -ge 1 ] || usage
    load "$1"; shift
    local nowait=""
    [ "${1:-}" != --no-wait ] || nowait=1
    [ -f "$OUTDIR/plan.json" ] || die "$OUTDIR/plan.json does not exist: the plan job did not succeed (see $OUTDIR/logs/plan.log); start a new run"
    local act k todo=()
    act=$(active)
    for k in $(seq 1 "$PIECES"); do
        is_final "$(piece_state "$k")" && continue
        awk -v k="$k" '$1 ~ "_" k "$" { f = 1 } END { exit !f }' <<<"$act" && continue
        todo+=("$k")
    done
    sbatch_array
    local array="" after combine spec
    if [ ${#todo[@]} -gt 0 ]; then
        spec=$(IFS=,; echo "${todo[*]}")
        array=$(submit_array "$spec") || die "sbatch refused the array"
        echo "array $array $spec" >>"$OUTDIR/jobs"
        echo "resubmitted pieces $spec as array $array"
    else
        echo "no piece to resubmit (every piece is final or still queued)"
    fi
    after=$( { [ -z "$array" ] || echo "$array"; awk '$1 ~ /_/ { sub(/_.*/, "", $1); print $1 }' <<<"$act"; } | sort -u | paste -sd:)
    if [ -n "$after" ]; then
        combine=$(submit_combine "$after") || die "sbatch refused the combine job"
    else
        combine=$(sbatch --parsable "${SB[@]}" --cpus-per-task=1 --job-name=split-combine --open-mode=append \
            --output="$OUTDIR/logs/combine.log" "$SCRIPT" combine "$OUTDIR" | cut -d';' -f1)
    fi
    echo "combine $combine" >>"$OUTDIR/jobs"
    echo "combine job $combine"
    [ -n "$nowait" ] || wait_and_report
}

mode="${1:-}"
case "$mode" in
status) shift; status "$@" ;;
resubmit) shift; resubmit "$@" ;;
plan) load "$2"; exec "$BENCH" "${GLOBAL_ARGS[@]}" split plan "${PLAN_ARGS[@]}" --out "$OUTDIR" ;;
piece) load "$2"; exec "$BENCH" "${GLOBAL_ARGS[@]}" split piece "${PIECE_ARGS[@]}" --out "$OUTDIR" ;;
combine) load "$2"; exec "$BENCH" split combine --out "$OUTDIR" ;;
-h|--help|"") usage ;;
*) submit "$@" ;;
esac
