#!/usr/bin/env python3
"""Writes every solvable 3 x 3 position (181,440; goal blank-last) with its optimal solution
length, by breadth-first search from the goal, as an instance file for
`bench predict --instances FILE --goal blank-last` (a set total over all start states).

    scripts/predict-eight-all.py OUT.tsv
"""
import sys
from collections import deque

goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
dist = {goal: 0}
queue = deque([goal])
while queue:
    s = queue.popleft()
    b = s.index(0)
    r, c = divmod(b, 3)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < 3 and 0 <= c + dc < 3:
            n = (r + dr) * 3 + c + dc
            t = list(s)
            t[b], t[n] = t[n], t[b]
            t = tuple(t)
            if t not in dist:
                dist[t] = dist[s] + 1
                queue.append(t)
assert len(dist) == 181440
with open(sys.argv[1], 'w') as f:
    f.write('id\toptimal\ttiles\n')
    for i, (s, d) in enumerate(sorted(dist.items()), 1):
        f.write(f"{i}\t{d}\t{' '.join(map(str, s))}\n")
