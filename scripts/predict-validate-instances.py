#!/usr/bin/env python3
"""Per-instance validation of `bench predict` on instances IDA* can only partly run: IDA*'s
own counts per iteration (`bench solve --format json`, `per_iteration`) under a node budget,
one thread, against the predictions of every method and tree for the same iterations.
Only iterations that ran to their end are compared (the last one stops at the first solution
or at the budget). Measurements are cached in OUTDIR (measured-ID-TREE.json) and reused.

    scripts/predict-validate-instances.py BENCH INSTANCES ROWSxCOLS GOAL HEURISTIC BUDGET OUTDIR \
        [TREES=plain,fsm] [METHODS=kre,cdp,ss] [PROBES=50]

INSTANCES: a TSV with the columns id, optimal, tiles (row-major, 0 the blank). Prints one
line per instance and per (tree, method) the median and quartiles of predicted / measured
nodes generated, per instance (summed over its complete iterations) and per complete
iteration; writes OUTDIR/predicted.csv (bench predict's) and OUTDIR/ratios.csv.
"""
import csv, json, os, statistics, subprocess, sys

bench, inst, size, goal, heur, budget, outdir = sys.argv[1:8]
trees = (sys.argv[8] if len(sys.argv) > 8 else 'plain,fsm').split(',')
methods = (sys.argv[9] if len(sys.argv) > 9 else 'kre,cdp,ss').split(',')
probes = sys.argv[10] if len(sys.argv) > 10 else '50'
rows, cols = map(int, size.split('x'))
os.makedirs(outdir, exist_ok=True)
instances = list(csv.DictReader(open(inst), delimiter='\t'))
algo = {'plain': 'idastar', 'fsm': 'idastar-fsm'}

measured = {}
for r in instances:
    tiles = r['tiles'].split()
    board = '\n'.join(' '.join(tiles[i * cols:(i + 1) * cols]) for i in range(rows))
    for tree in trees:
        path = os.path.join(outdir, f"measured-{r['id']}-{tree}.json")
        if not os.path.exists(path):
            p = subprocess.run([bench, 'solve', '--algo', algo[tree], '--heuristic', heur,
                                '--goal', goal, '--format', 'json', '--max-nodes', budget],
                               input=board, capture_output=True, text=True)
            if p.returncode not in (0, 3):
                sys.exit(f"instance {r['id']} {tree}: bench solve failed: {p.stderr}")
            with open(path, 'w') as f:
                f.write(p.stdout)
        its = json.load(open(path))['per_iteration']
        measured[(r['id'], tree)] = {it['bound']: it['generated'] for it in its if it['complete']}
        print(f"measured {r['id']} {tree}: complete iterations {sorted(measured[(r['id'], tree)])}",
              file=sys.stderr)

pred_path = os.path.join(outdir, 'predicted.csv')
subprocess.run([bench, 'predict', '--seed', '1', '--instances', inst, '--goal', goal, '--heuristics', heur,
                '--method', ','.join(methods), '--pruning', ','.join(trees), '--probes', probes,
                '--out', pred_path], check=True, stdout=subprocess.DEVNULL)
pred = {}
for x in csv.DictReader(open(pred_path)):
    if x['scope'] == 'iteration' and x['instance_id']:
        pred[(x['instance_id'], x['tree'], x['method'], int(x['bound']))] = float(x['predicted_generated'])

def quart(v):
    if len(v) < 2:
        return (v[0], v[0], v[0]) if v else (float('nan'),) * 3
    q = statistics.quantiles(v, n=4)
    return q[0], statistics.median(v), q[2]

with open(os.path.join(outdir, 'ratios.csv'), 'w') as f:
    w = csv.writer(f)
    w.writerow(['instance_id', 'tree', 'method', 'bound', 'predicted', 'measured', 'ratio'])
    for tree in trees:
        for m in methods:
            per_inst, per_it = [], []
            for r in instances:
                comp = measured[(r['id'], tree)]
                ps = ms = 0.0
                for b, g in sorted(comp.items()):
                    p = pred.get((r['id'], tree, m, b))
                    if p is None:
                        continue
                    w.writerow([r['id'], tree, m, b, f'{p:.6g}', g, f'{p / g:.4f}'])
                    per_it.append(p / g)
                    ps += p
                    ms += g
                if ms > 0:
                    per_inst.append(ps / ms)
                    print(f"{tree} {m} #{r['id']} (optimal {r['optimal']}): {len(comp)} complete "
                          f"iterations, measured {ms:.4g}, predicted {ps:.4g}, ratio {ps / ms:.3f}")
            a, b, c = quart(per_inst)
            x, y, z = quart(per_it)
            print(f"SUMMARY {heur} {tree} {m}: per instance median {b:.3f} (quartiles {a:.3f} .. {c:.3f}) "
                  f"over {len(per_inst)} instances; per complete iteration median {y:.3f} "
                  f"({x:.3f} .. {z:.3f}) over {len(per_it)}")
