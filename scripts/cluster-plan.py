#!/usr/bin/env python3
"""Plan a set of hard instances for a cluster from `bench predict`'s stratified-sampling
estimates: predicted CPU-hours per instance, how many `bench split` pieces each instance should
get on K cores, and the wall time the whole set takes.

    scripts/cluster-plan.py PREDICT_CSV --rate NODES_PER_CPU_SECOND [--tree fsm]
        [--last-fraction 0.5] [--overhead 1.1] [--imbalance 1.5] [--cores 100,1000]
        [--measured TSV] [--frontier-per-piece 20]

PREDICT_CSV: `bench predict --instances FILE --method ss --out PREDICT_CSV` on an instance file
with an `optimal` column (the bound IDA* ends at). Per instance the estimate is the sum of its
iterations before the last plus `--last-fraction` of the last (IDA* stops at its first
solution: 0.5 if that is as likely anywhere in the last iteration's order).

--rate: generated nodes per CPU second of one piece (single-thread `idastar-fsm`, measure it on
instances that finish: `bench run --threads 1 ...`, nodes_generated / cpu_ms). --overhead:
pieces' summed CPU / one process's CPU; --imbalance: slowest piece / mean piece (both measured
by scripts/split-scaling.sh). --measured: a TSV with columns id, generated (instances that ran
to their end) put beside the estimates.

Schedule: every instance starts at once with at least one piece; each further core goes to the
instance that would end last. An instance with p pieces ends after CPU x overhead x imbalance / p
(one piece: its CPU alone). The set's wall time is the longest of these. Printed as Markdown.
"""
import argparse, csv, heapq, statistics, sys


def estimates(path, tree, last_fraction):
    """Per instance id: (optimal bound, predicted generated nodes)."""
    iters = {}
    for r in csv.DictReader(open(path)):
        if r['tree'] != tree or r['method'] != 'ss' or r['scope'] != 'iteration':
            continue
        iters.setdefault(r['instance_id'], []).append((int(r['bound']), float(r['predicted_generated'])))
    out = {}
    for i, rows in iters.items():
        rows.sort()
        last_bound, last = rows[-1]
        out[i] = (last_bound, sum(g for _, g in rows[:-1]) + last_fraction * last)
    return out


def piece_wall(cpu, pieces, overhead, imbalance):
    """Wall time of one instance run as `pieces` pieces at once (one piece: the plain search)."""
    return cpu if pieces == 1 else cpu * overhead * imbalance / pieces


def allocate(cpu, cores, overhead, imbalance):
    """Pieces per instance that make the longest instance as short as they can: one each, then
    every further core to the instance that would end last (each piece shortens an instance,
    so giving the next one to the current longest is optimal for the longest)."""
    if cores < len(cpu):
        sys.exit(f'--cores {cores}: fewer cores than instances ({len(cpu)}); give at least one each')
    pieces = {i: 1 for i in cpu}
    heap = [(-c, i) for i, c in cpu.items()]
    heapq.heapify(heap)
    for _ in range(cores - len(cpu)):
        _, i = heapq.heappop(heap)
        pieces[i] += 1
        heapq.heappush(heap, (-piece_wall(cpu[i], pieces[i], overhead, imbalance), i))
    return pieces


def hours(seconds):
    return seconds / 3600.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('predict_csv')
    ap.add_argument('--rate', type=float, required=True)
    ap.add_argument('--tree', default='fsm')
    ap.add_argument('--last-fraction', type=float, default=0.5)
    ap.add_argument('--overhead', type=float, default=1.1)
    ap.add_argument('--imbalance', type=float, default=1.5)
    ap.add_argument('--cores', default='100,1000')
    ap.add_argument('--measured')
    ap.add_argument('--frontier-per-piece', type=int, default=20)
    a = ap.parse_args()
    if a.rate <= 0:
        sys.exit('--rate must be positive (generated nodes per CPU second)')
    est = estimates(a.predict_csv, a.tree, a.last_fraction)
    if not est:
        sys.exit(f'{a.predict_csv}: no ss iterations for tree {a.tree}')
    measured = {}
    if a.measured:
        measured = {r['id']: float(r['generated']) for r in csv.DictReader(open(a.measured), delimiter='\t')}
    cores = [int(c) for c in a.cores.split(',')]
    cpu = {i: g / a.rate for i, (_, g) in est.items()}
    plans = {k: allocate(cpu, k, a.overhead, a.imbalance) for k in cores}

    head = ['id', 'optimal', 'predicted generated', 'measured', 'predicted / measured', 'CPU h (1 core)']
    head += [f'pieces on {k}' for k in cores] + [f'wall h on {k}' for k in cores]
    print('| ' + ' | '.join(head) + ' |')
    print('|' + '---:|' * len(head))
    ratios = []
    walls = {k: {} for k in cores}
    for i in sorted(est, key=lambda i: int(i)):
        bound, g = est[i]
        m = measured.get(i)
        ratio = ''
        if m:
            ratios.append(g / m)
            ratio = f'{g / m:.2f}'
        cells = [i, str(bound), f'{g:.3g}', f'{m:.3g}' if m else '', ratio, f'{hours(cpu[i]):.3f}']
        for k in cores:
            p = plans[k][i]
            walls[k][i] = piece_wall(cpu[i], p, a.overhead, a.imbalance)
        cells += [str(plans[k][i]) for k in cores]
        cells += [f'{hours(walls[k][i]):.3f}' for k in cores]
        print('| ' + ' | '.join(cells) + ' |')
    total = sum(cpu.values())
    print()
    print(f'Instances: {len(est)}; predicted generated nodes in all: {sum(g for _, g in est.values()):.4g}; '
          f'CPU at {a.rate:.3g} nodes/s: {hours(total):.1f} h on one core '
          f'(x {a.overhead} split overhead: {hours(total * a.overhead):.1f} h).')
    if ratios:
        q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
        print(f'Predicted / measured on the {len(ratios)} instances measured: median {statistics.median(ratios):.2f}, '
              f'quartiles {q[0]:.2f} .. {q[2]:.2f}, range {min(ratios):.2f} .. {max(ratios):.2f}.')
    for k in cores:
        longest = max(walls[k], key=walls[k].get)
        pmax = max(plans[k].values())
        print(f'On {k} cores: every instance at once, cores given to the instance that would end last: '
              f'{hours(walls[k][longest]) * 60:.0f} min wall (longest: #{longest}, {plans[k][longest]} pieces); '
              f'ideal (CPU x overhead / cores) {hours(total * a.overhead / k) * 60:.0f} min; '
              f'largest split {pmax} pieces: plan it with --frontier {max(4000, a.frontier_per_piece * pmax)}.')


if __name__ == '__main__':
    main()
