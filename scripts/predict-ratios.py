#!/usr/bin/env python3
"""Predicted vs measured per complete iteration, from a `bench predict --measure` CSV.

    scripts/predict-ratios.py FILE.csv

Per method: the median and quartiles of predicted / measured over every (instance, bound)
whose IDA* iteration ran to its end; then per bound the mean measured count beside the mean
prediction, over the instances that completed that iteration (all of them at the small
bounds, where the mean is KRE's claim about random start states).
"""
import csv, statistics, sys
from collections import defaultdict

rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if r['scope'] == 'iteration' and r['instance_id'] and r['measured_generated']]
instances = {r['instance_id'] for r in rows}
by_method = defaultdict(list)
by_bound = defaultdict(lambda: defaultdict(list))
for r in rows:
    p, m = float(r['predicted_generated']), float(r['measured_generated'])
    by_method[r['method']].append(p / m)
    by_bound[int(r['bound'])][r['method']].append((p, m))
print(f'{len(instances)} instances with complete iterations, {sys.argv[1]}')
print('method  iterations  median  quartiles (predicted / measured, per complete iteration)')
for meth, v in sorted(by_method.items()):
    q = statistics.quantiles(v, n=4)
    print(f'{meth}  {len(v)}  {statistics.median(v):.3f}  {q[0]:.3f} .. {q[2]:.3f}')
methods = sorted(by_method)
print('\nbound  instances  mean measured  ' + '  '.join(f'mean {m} / mean measured' for m in methods))
for b in sorted(by_bound):
    pm = by_bound[b]
    n = len(next(iter(pm.values())))
    meas = statistics.mean(m for _, m in next(iter(pm.values())))
    cells = [f'{statistics.mean(p for p, _ in pm[m]) / meas:.3f}' if m in pm else '-' for m in methods]
    print(f'{b}  {n}  {meas:.4g}  ' + '  '.join(cells))

# KRE's own claim: the mean over ALL random start states of the iteration with bound d (a start
# whose estimate exceeds d generates only its root; a start of the other parity runs the
# same iteration at d - 1), at the bounds where every instance's iteration is known.
allrows = list(csv.DictReader(open(sys.argv[1])))
kre = {int(r['bound']): float(r['predicted_generated']) for r in allrows
       if r['method'] == 'kre' and not r['instance_id'] and r['scope'] == 'iteration'}
if kre:
    first, complete = {}, defaultdict(dict)
    for r in rows:
        i, b = r['instance_id'], int(r['bound'])
        complete[i][b] = float(r['measured_generated'])
    for r in allrows:
        if r['instance_id'] and r['scope'] == 'iteration':
            i, b = r['instance_id'], int(r['bound'])
            first[i] = min(first.get(i, b), b)
    print('\nKRE over all start states: bound, instances, mean measured (se), KRE(d), KRE / mean')
    for d in sorted(kre):
        vals = []
        for i, h0 in first.items():
            if h0 > d:
                vals.append(1.0)
            elif d in complete[i] or d - 1 in complete[i]:
                vals.append(complete[i].get(d, complete[i].get(d - 1)))
            else:
                break
        else:
            if len(vals) > 1 and statistics.mean(vals) > 1:
                m = statistics.mean(vals)
                se = statistics.stdev(vals) / len(vals) ** 0.5
                print(f'{d}  {len(vals)}  {m:.4g} ({se:.2g})  {kre[d]:.4g}  {kre[d] / m:.3f}')
