#!/usr/bin/env bash
# IDA* + Manhattan on Korf's 15-puzzles: `bench run --threads 1` against a plain recursive C
# IDA* (benches/ida_baseline.c, written for this project), the same instances, alternating
# in one run, so that both see the same machine.
#
#   scripts/ida-vs-c.sh [ROUNDS] [MAX_NODES]     defaults: 3 rounds; Korf's instances with
#                                                fewer than 20 M published nodes (37 of 100)
#
# The C program is built with the system's cc and ${CFLAGS:--O2} (no -march=native: our
# release build targets the generic x86-64 CPU too). BENCH=path picks another bench binary
# (e.g. target/test-opt/bench, same code without fat LTO); the default builds the release one.
# Both sides are timed by their thread's CPU clock (the harness's cpu_ms; the C program's
# CLOCK_THREAD_CPUTIME_ID), so waiting for a core on a shared machine counts for neither.
# Prints per round the node rates and the ratio Rust / C, then the median ratio, and fails
# if any node count differs from Korf's published one.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
max=${2:-20000000}
if [ -z "${BENCH:-}" ]; then
    cargo build --release --quiet --bin bench
    BENCH=target/release/bench
fi
work=target/ida-vs-c
mkdir -p "$work"
cc ${CFLAGS:--O2} -o "$work/ida_baseline" benches/ida_baseline.c
published=data/korf100.tsv
subset=$work/korf.tsv
(head -1 "$published"; awk -F'\t' -v max="$max" 'NR > 1 && $3 < max' "$published") > "$subset"
echo "instances: $(($(wc -l < "$subset") - 1)) of Korf's 100 (fewer than $max nodes); bench: $BENCH; cc ${CFLAGS:--O2}"
echo "load: $(uptime)"
printf 'round\tc_Mnodes/s\trust_Mnodes/s\tratio\n'
ratios=()
for r in $(seq "$rounds"); do
    "$work/ida_baseline" "$subset" > "$work/c-$r.tsv"
    rm -f "$work/rust-$r.csv" "$work/rust-$r.csv.meta.json"
    "$BENCH" run --instances "$subset" --algos idastar --heuristics manhattan --threads 1 \
        --timeout none --max-memory none --quiet --out "$work/rust-$r.csv"
    line=$(awk -F'\t' -v round="$r" '
        FILENAME ~ /korf.tsv$/ { if (FNR > 1) korf[$1] = $3; next }
        FILENAME ~ /c-[0-9]+.tsv$/ {
            if ($3 != korf[$1]) { print "C instance " $1 ": " $3 " nodes, Korf " korf[$1] > "/dev/stderr"; bad = 1 }
            cg += $3; cs += $5; next
        }
        FNR == 1 { n = split($0, h, ","); for (i = 1; i <= n; i++) col[h[i]] = i; next }
        {
            split($0, f, ",")
            id = f[col["instance_id"]]; g = f[col["nodes_generated"]]
            if (g != korf[id]) { print "Rust instance " id ": " g " nodes, Korf " korf[id] > "/dev/stderr"; bad = 1 }
            rg += g; rs += f[col["cpu_ms"]] / 1000
        }
        END {
            if (bad) exit 1
            printf "%d\t%.1f\t%.1f\t%.3f\n", round, cg / cs / 1e6, rg / rs / 1e6, (rg / rs) / (cg / cs)
        }' "$subset" "$work/c-$r.tsv" "$work/rust-$r.csv")
    echo "$line"
    ratios+=("$(cut -f4 <<< "$line")")
done
printf '%s\n' "${ratios[@]}" | sort -g | awk '{ v[NR] = $1 } END { printf "median ratio (Rust / C): %.3f over %d rounds; every node count equals Korf'"'"'s\n", v[int((NR + 1) / 2)], NR }'
