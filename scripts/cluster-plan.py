#!/usr/bin/env python3
"""Plan a set of hard instances for a cluster from `bench predict`'s stratified-sampling
estimates: predicted CPU-hours per instance, how many `bench split` pieces each instance should
get on K cores, and the wall time the whole set takes.

    scripts/cluster-plan.py PREDICT_CSV --rate NODES_PER_CPU_SECOND [--tree fsm]
        [--last-fraction 0.5] [--overhead 1.1] [--imbalance 1.5] [--cores 100,1000]
        [--measured TSV] [--frontier-per-piece 20]
        [--commands K --instances FILE --out-root DIR --solve-args "ARGS"]

PREDICT_CSV: `bench predict --instances FILE --method ss --out PREDICT_CSV` on an instance file
with an `optimal` column (the bound IDA* ends at). Per instance the estimate is the sum of its
iterations before the last plus `--last-fraction` of the last (IDA* stops at its first
solution: 0.5 if that is as likely anywhere in the last iteration's order).

--rate: generated nodes per CPU second of one piece (single-thread `idastar-fsm`, measure it on
instances that finish: `bench run --threads 1 ...`, nodes_generated / cpu_ms). --overhead:
pieces' summed CPU / one process's CPU; --imbalance: slowest piece / mean piece (both measured
by scripts/split-scaling.sh). --measured: a TSV with columns id, generated (instances that ran
to their end) put beside the estimates.

Schedule: an instance run as p pieces at once takes CPU x overhead x imbalance / p (one piece:
its CPU alone). The script tries every instance at once (each further core to the instance that
would end last) and, for a range of targets, splitting only the instances longer than the
target while the rest queue for one core each, longest first; it prints the plan that ends
first: per instance its pieces, start and end, and the set's wall time. Printed as Markdown.

--commands K: instead of the table, print the `scripts/slurm-solve.sh` command of every instance
for the plan on K cores (its pieces, a frontier of --frontier-per-piece nodes per piece, at
least 4000, its own OUTDIR under --out-root, --no-wait), with --solve-args appended (the
algorithm, heuristic, goal and pattern-database flags, spelled as for `bench run`).
"""
import argparse, csv, heapq, math, statistics, sys


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


def all_at_once(cpu, cores, overhead, imbalance):
    """Pieces per instance when every instance starts at once: one each, then every further
    core to the instance that would end last (each piece shortens an instance, so giving the
    next one to the current longest is optimal for the longest)."""
    pieces = {i: 1 for i in cpu}
    heap = [(-c, i) for i, c in cpu.items()]
    heapq.heapify(heap)
    for _ in range(cores - len(cpu)):
        _, i = heapq.heappop(heap)
        pieces[i] += 1
        heapq.heappush(heap, (-piece_wall(cpu[i], pieces[i], overhead, imbalance), i))
    return pieces


def splits_then_queue(cpu, cores, overhead, imbalance, target):
    """Pieces per instance when only instances longer than `target` are split (into pieces
    that each end by `target`); None when those splits alone need more than `cores`."""
    pieces = {}
    for i, c in cpu.items():
        pieces[i] = 1 if c <= target else max(2, math.ceil(c * overhead * imbalance / target))
    split = sum(p for p in pieces.values() if p > 1)
    return pieces if split <= cores else None


def schedule(cpu, pieces, cores, overhead, imbalance):
    """Start times: split instances (their pieces must run at once) at time 0, heaviest first
    while cores are free; then every other instance, longest first, on the core free first
    (what Slurm's queue does with jobs submitted in that order). Returns {id: (start, end)}."""
    free = [0.0] * cores  # heap of the times the cores come free
    times = {}
    order = sorted(cpu, key=lambda i: (pieces[i] == 1, -cpu[i]))
    for i in order:
        p, d = pieces[i], piece_wall(cpu[i], pieces[i], overhead, imbalance)
        taken = [heapq.heappop(free) for _ in range(p)]
        start = max(taken)
        times[i] = (start, start + d)
        for _ in taken:
            heapq.heappush(free, start + d)
    return times


def plan(cpu, cores, overhead, imbalance):
    """The best of: every instance at once, and (for a range of targets) splitting only the
    instances longer than the target and queueing the rest. Returns (pieces, times)."""
    if cores < len(cpu):
        sys.exit(f'--cores {cores}: fewer cores than instances ({len(cpu)}); give at least one each')
    candidates = [all_at_once(cpu, cores, overhead, imbalance)]
    low, high = sum(cpu.values()) / cores, max(cpu.values())
    for k in range(201):
        target = low * (high / low) ** (k / 200) if high > low else high
        p = splits_then_queue(cpu, cores, overhead, imbalance, target)
        if p:
            candidates.append(p)
    best = None
    for p in candidates:
        t = schedule(cpu, p, cores, overhead, imbalance)
        span = max(e for _, e in t.values())
        if best is None or span < best[0]:
            best = (span, p, t)
    return best[1], best[2]


def frontier(pieces, per_piece):
    return max(4000, per_piece * pieces)


def commands(cpu, pieces, a):
    """One scripts/slurm-solve.sh line per instance in the order of `schedule`: the split ones
    first (their pieces must start together), then the rest, longest first."""
    for i in sorted(cpu, key=lambda i: (pieces[i] == 1, -cpu[i])):
        line = (f'scripts/slurm-solve.sh --instances {a.instances} --id {i} --pieces {pieces[i]} '
                f'--frontier {frontier(pieces[i], a.frontier_per_piece)} --out {a.out_root}/{i} --no-wait')
        print(f'{line} {a.solve_args}'.rstrip())


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
    ap.add_argument('--commands', type=int, metavar='K')
    ap.add_argument('--instances')
    ap.add_argument('--out-root', default='runs')
    ap.add_argument('--solve-args', default='')
    a = ap.parse_args()
    if a.commands is not None and not a.instances:
        sys.exit('--commands needs --instances FILE (the instance file the estimates were made from)')
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
    if a.commands is not None:
        pieces, _ = plan(cpu, a.commands, a.overhead, a.imbalance)
        commands(cpu, pieces, a)
        return
    plans = {k: plan(cpu, k, a.overhead, a.imbalance) for k in cores}

    head = ['id', 'optimal', 'predicted generated', 'measured', 'predicted / measured', 'CPU h (1 core)']
    for k in cores:
        head += [f'pieces on {k}', f'start h on {k}', f'end h on {k}']
    print('| ' + ' | '.join(head) + ' |')
    print('|' + '---:|' * len(head))
    ratios = []
    for i in sorted(est, key=lambda i: int(i)):
        bound, g = est[i]
        m = measured.get(i)
        ratio = ''
        if m:
            ratios.append(g / m)
            ratio = f'{g / m:.2f}'
        cells = [i, str(bound), f'{g:.3g}', f'{m:.3g}' if m else '', ratio, f'{hours(cpu[i]):.3f}']
        for k in cores:
            pieces, times = plans[k]
            cells += [str(pieces[i]), f'{hours(times[i][0]):.3f}', f'{hours(times[i][1]):.3f}']
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
        pieces, times = plans[k]
        last = max(times, key=lambda i: times[i][1])
        split = [i for i in pieces if pieces[i] > 1]
        pmax = max(pieces.values())
        print(f'On {k} cores: {hours(times[last][1]) * 60:.0f} min wall (last to end: #{last}); '
              f'{len(split)} instances split ({sum(pieces[i] for i in split)} pieces, at most {pmax}: '
              f'plan that one with --frontier {frontier(pmax, a.frontier_per_piece)}), the other '
              f'{len(pieces) - len(split)} queued one core each; '
              f'bound: CPU x overhead / cores = {hours(total * a.overhead / k) * 60:.0f} min.')

if __name__ == '__main__':
    main()
