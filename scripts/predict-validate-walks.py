#!/usr/bin/env python3
"""Per-instance validation of `bench predict --method ss,cdp` on random walks (e.g. 6 x 6,
short enough for IDA* to finish): predicted vs measured nodes generated summed over each
instance's complete IDA* iterations (`bench solve --format json`, per_iteration).

    scripts/predict-validate-walks.py BENCH ROWS COLS MOVES COUNT [HEURISTIC]
"""
import csv, json, statistics, subprocess, sys, tempfile, os

bench, rows, cols, moves, count = sys.argv[1], *map(int, sys.argv[2:6])
heuristic = sys.argv[6] if len(sys.argv) > 6 else 'manhattan'
with tempfile.TemporaryDirectory() as d:
    inst, out = os.path.join(d, 'w.txt'), os.path.join(d, 'p.csv')
    subprocess.run([bench, 'gen', '--rows', str(rows), '--cols', str(cols), '--moves', str(moves),
                    '--count', str(count), '--seed', '1', '--out', inst], check=True, capture_output=True)
    boards = []
    lines = [l for l in open(inst) if not l.startswith('#') and l.strip()]
    header = lines[0].rstrip('\n').split('\t')
    for l in lines[1:]:
        f = dict(zip(header, l.rstrip('\n').split('\t')))
        boards.append((f['id'], f['tiles'].split()))
    subprocess.run([bench, 'predict', '--seed', '1', '--instances', inst, '--heuristics', heuristic,
                    '--method', 'cdp,ss', '--pruning', 'plain', '--bounds', f'0..{moves}',
                    '--out', out], check=True, capture_output=True)
    pred = list(csv.DictReader(open(out)))
ratios = {'cdp': [], 'ss': []}
print(f'{rows}x{cols} walks of {moves}, {heuristic}: id optimal measured(complete its) cdp ss')
for id_, tiles in boards:
    board = '\n'.join(' '.join(tiles[i*cols:(i+1)*cols]) for i in range(rows))
    p = subprocess.run([bench, 'solve', '--algo', 'idastar', '--heuristic', heuristic,
                        '--format', 'json'], input=board, capture_output=True, text=True, check=True)
    js = json.loads(p.stdout)
    complete = {it['bound']: it['generated'] for it in js['per_iteration'] if it['complete']}
    if not complete:
        continue
    measured = sum(complete.values())
    line = [id_, str(js['length']), str(measured)]
    for m in ratios:
        pr = sum(float(x['predicted_generated']) for x in pred
                 if x['method'] == m and x['instance_id'] == id_ and int(x['bound']) in complete)
        ratios[m].append(pr / measured)
        line.append(f'{pr / measured:.3f}')
    print('  '.join(line))
for m, v in ratios.items():
    print(f'{m}: median ratio {statistics.median(v):.3f} (min {min(v):.3f}, max {max(v):.3f}) over {len(v)} instances')
