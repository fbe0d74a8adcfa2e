#!/usr/bin/env python3
"""The 35-puzzle table by stratified sampling: per heuristic and tree, the median over
uniformly random 6 x 6 boards of SS's predicted nodes generated in the iteration with each
bound (a start whose bounds step by 2 and miss d counts its iteration d - 1, which is the
same iteration; a start whose estimate exceeds d counts 1, the root), and the ratio to the
first column. With CSV, the predictions are kept there (and read back if it exists).

    scripts/predict-6x6-ss.py BENCH INSTANCES HEURISTICS A..B STEP [PROBES [CSV]]
"""
import csv, os, statistics, subprocess, sys, tempfile
from collections import defaultdict

bench, inst, heur, bounds, step = sys.argv[1:6]
probes = sys.argv[6] if len(sys.argv) > 6 else '20'
a, b = map(int, bounds.split('..'))
keep = sys.argv[7] if len(sys.argv) > 7 else None
if keep and os.path.exists(keep):
    rows = list(csv.DictReader(open(keep)))
else:
    with tempfile.TemporaryDirectory() as d:
        out = keep or os.path.join(d, 'p.csv')
        subprocess.run([bench, 'predict', '--seed', '1', '--instances', inst, '--heuristics', heur,
                        '--method', 'ss', '--pruning', 'plain,fsm', '--bounds', bounds,
                        '--probes', probes, '--out', out], check=True, capture_output=True)
        rows = list(csv.DictReader(open(out)))
est = defaultdict(dict)
order = []
for r in rows:
    if r['scope'] != 'iteration':
        continue
    key = (r['heuristic'], r['tree'])
    if key not in order:
        order.append(key)
    est[key].setdefault(r['instance_id'], {})[int(r['bound'])] = float(r['predicted_generated'])
def median_at(key, d):
    v = []
    for per in est[key].values():
        x = per.get(d, per.get(d - 1))
        if x is None and d < min(per):
            x = 1.0
        if x is not None:
            v.append(x)
    return (statistics.median(v), len(v)) if v else (None, 0)
n = len(next(iter(est.values())))
print(f'SS ({probes} probes) over {n} random boards of {inst}: median nodes generated per iteration')
print('bound  ' + '  '.join(f'{h} {t}' for h, t in order))
for d in range(a, b + 1, int(step)):
    base = median_at(order[0], d)[0]
    cells = []
    for k in order:
        m, _ = median_at(k, d)
        if m is None:
            cells.append('-')
        elif k == order[0] or not base:
            cells.append(f'{m:.3g}')
        else:
            cells.append(f'{m:.3g} ({m / base:.2g})')
    print(f'{d}  ' + '  '.join(cells))
