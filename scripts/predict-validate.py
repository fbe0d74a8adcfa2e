#!/usr/bin/env python3
"""Per-iteration validation of `bench predict` on the easiest Korf 100 instances (IDA* +
Manhattan): predicted (KRE, CDP, SS) vs measured nodes generated, summed over each instance's
complete iterations (all but the last, which IDA* stops at the first solution).

    scripts/predict-validate.py BENCH K [HEURISTIC] [METHODS]
        # the K easiest instances by published Manhattan count; default manhattan, kre,cdp,ss
"""
import csv, json, statistics, subprocess, sys, tempfile, os

bench, k = sys.argv[1], int(sys.argv[2])
heuristic = sys.argv[3] if len(sys.argv) > 3 else 'manhattan'
methods = sys.argv[4] if len(sys.argv) > 4 else 'kre,cdp,ss'
data = os.path.join(os.path.dirname(__file__), '..', 'data', 'korf100.tsv')
rows = list(csv.DictReader(open(data), delimiter='\t'))
easy = sorted(rows, key=lambda r: int(r['ida_md_generated']))[:k]
with tempfile.TemporaryDirectory() as d:
    inst = os.path.join(d, 'easy.tsv')
    with open(inst, 'w') as f:
        f.write('id\toptimal\ttiles\n')
        for r in easy:
            f.write(f"{r['id']}\t{r['optimal']}\t{r['tiles']}\n")
    out = os.path.join(d, 'p.csv')
    subprocess.run([bench, 'predict', '--seed', '1', '--instances', inst, '--heuristics', heuristic,
                    '--method', methods, '--pruning', 'plain', '--probes', '50',
                    '--out', out], check=True, stdout=subprocess.DEVNULL)
    pred = list(csv.DictReader(open(out)))
ratios = {m: [] for m in methods.split(',')}
print(f'{heuristic}: id  optimal  measured(complete its)  ' + '  '.join(ratios) + '  (ratios predicted/measured)')
for r in easy:
    tiles = r['tiles'].split()
    board = '\n'.join(' '.join(tiles[i*4:(i+1)*4]) for i in range(4))
    p = subprocess.run([bench, 'solve', '--algo', 'idastar', '--heuristic', heuristic,
                        '--goal', 'blank-first', '--format', 'json'], input=board,
                       capture_output=True, text=True, check=True)
    its = json.loads(p.stdout)['per_iteration']
    complete = {it['bound']: it['generated'] for it in its if it['complete']}
    if not complete:
        continue
    measured = sum(complete.values())
    line = [r['id'], r['optimal'], str(measured)]
    for m in ratios:
        pr = sum(float(x['predicted_generated']) for x in pred
                 if x['method'] == m and x['instance_id'] == r['id'] and x['scope'] == 'iteration'
                 and int(x['bound']) in complete)
        ratios[m].append(pr / measured)
        line.append(f'{pr / measured:.3f}')
    print('  '.join(line))
for m, v in ratios.items():
    q = statistics.quantiles(v, n=4) if len(v) > 1 else v * 3
    print(f'{m}: median ratio {statistics.median(v):.3f} (quartiles {q[0]:.3f} .. {q[2]:.3f}) over {len(v)} instances')
