#!/usr/bin/env python3
"""Korf's 100 with Manhattan: the set totals of `bench predict` (KRE, SS) against the published
36,302,808,031, and per optimal length L the published mean run count beside KRE's and SS's
prediction of the whole iteration with bound L (why a KRE-based set total fails).

    scripts/predict-korf100-set.py BENCH [LAST_FRACTION]
"""
import csv, os, statistics, subprocess, sys, tempfile
from collections import defaultdict

bench = sys.argv[1]
frac = sys.argv[2] if len(sys.argv) > 2 else '0.5'
data = os.path.join(os.path.dirname(__file__), '..', 'data', 'korf100.tsv')
korf = {r['id']: r for r in csv.DictReader(open(data), delimiter='\t')}
published = sum(int(r['ida_md_generated']) for r in korf.values())
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, 'p.csv')
    p = subprocess.run([bench, 'predict', '--seed', '1', '--instances', data, '--heuristics', 'manhattan',
                        '--method', 'kre,ss', '--pruning', 'plain', '--samples', '1000000',
                        '--probes', '20', '--last-fraction', frac, '--out', out],
                       check=True, capture_output=True, text=True)
    rows = list(csv.DictReader(open(out)))
print(p.stdout[p.stdout.index('Set total'):])
for r in rows:
    if r['scope'] == 'set':
        g = float(r['predicted_generated'])
        print(f"{r['method']}: set total {g:.4g} = {g / published:.3g} x published {published:,}")
last = defaultdict(dict)
for r in rows:
    if r['scope'] == 'iteration' and r['instance_id'] and \
            int(r['bound']) == int(korf[r['instance_id']]['optimal']):
        last[r['method']][r['instance_id']] = float(r['predicted_generated'])
by_len = defaultdict(list)
for i, r in korf.items():
    by_len[int(r['optimal'])].append(i)
print('\nL  instances  published mean run  KRE(L) mean  SS(L) mean  KRE/published  SS/published')
for L in sorted(by_len):
    ids = by_len[L]
    pub = statistics.mean(int(korf[i]['ida_md_generated']) for i in ids)
    kre = statistics.mean(last['kre'][i] for i in ids)
    ss = statistics.mean(last['ss'][i] for i in ids)
    print(f'{L}  {len(ids)}  {pub:.3g}  {kre:.3g}  {ss:.3g}  {kre / pub:.3g}  {ss / pub:.3g}')
