#!/usr/bin/env bash
# Two commands timed in turn, N pairs after one warm-up each: per run the CPU (user + sys) and
# wall time the kernel accounts for the finished process (/usr/bin/time), then the medians and
# the CPU ratio A/B pair by pair (min / median / max), so a drift in the machine's speed
# affects both sides of a pair alike.
#
# Usage: scripts/ab-time.sh [-n N] 'COMMAND A' 'COMMAND B'     (N default 5; output of the
# commands discarded)
set -euo pipefail
n=5
if [[ "${1:-}" == -n ]]; then n=$2; shift 2; fi
[[ $# -eq 2 ]] || { sed -n '2,8s/^# \{0,1\}//p' "$0" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "ab-time.sh: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
run() { /usr/bin/time -f '%U %S %e' -o "$tmp/t" bash -c "$1" >/dev/null 2>&1 || { echo "ab-time.sh: failed: $1" >&2; exit 1; }
        awk '{printf "%.3f %.3f\n", $1 + $2, $3}' "$tmp/t"; }
run "$1" >/dev/null; run "$2" >/dev/null
for _ in $(seq "$n"); do echo "$(run "$1") $(run "$2")"; done | awk -v n="$n" '
  function med(a, k,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                                   return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
  { ca[NR] = $1; wa[NR] = $2; cb[NR] = $3; wb[NR] = $4; r[NR] = ($3 > 0 ? $1 / $3 : 0) }
  END { printf "A cpu s median %.3f (wall %.3f); B cpu s median %.3f (wall %.3f)\n", med(ca, n), med(wa, n), med(cb, n), med(wb, n)
        m = med(r, n); printf "A/B cpu pair by pair: min %.3f median %.3f max %.3f\n", r[1] < 0 ? 0 : minr(), m, maxr() }
  function minr(   i, x) { x = r[1]; for (i = 2; i <= n; i++) if (r[i] < x) x = r[i]; return x }
  function maxr(   i, x) { x = r[1]; for (i = 2; i <= n; i++) if (r[i] > x) x = r[i]; return x }'
