/*
 * A plain recursive IDA* with Manhattan distance for the 15-puzzle: the C baseline that
 * scripts/ida-vs-c.sh runs side by side with `bench run --algos idastar --heuristics manhattan`.
 *
 * What it does, as a textbook program would (Korf 1985), and with the counting conventions of
 * the Rust search so that both generate exactly Korf's published node counts:
 *   - Manhattan distance updated incrementally from a [tile][cell] distance table;
 *   - the blank's moves tried in Korf's order (up, left, right, down) from per-cell lists;
 *   - the move back to the parent never generated;
 *   - a child over the bound counted as generated and pruned in its parent;
 *   - the root counted once for the whole run, the search stopping at the first solution.
 *
 * Input: Korf's tsv layout (id, optimal, ..., 16 tiles as the last field; goal blank first),
 * header line skipped. Output, one line per instance: id, moves, generated, expanded, and the
 * search's CPU seconds (the thread's CPU clock, like the harness's cpu_ms: on a shared
 * machine wall time counts other processes' work).
 *
 * Written for this project; build: cc -O2 -o ida_baseline ida_baseline.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CELLS 16
#define SIDE 4

static int tiles[CELLS];
static int dist[CELLS][CELLS]; /* dist[tile][cell]: Manhattan distance to the tile's goal */
static int nbr[CELLS][4];
static int nnbr[CELLS];
static unsigned long long generated, expanded;
static int bound, next_bound, solution;

static int dfs(int blank, int parent, int g, int h)
{
    if (h == 0) {
        solution = g;
        return 1;
    }
    expanded++;
    for (int k = 0; k < nnbr[blank]; k++) {
        int next = nbr[blank][k];
        if (next == parent)
            continue;
        generated++;
        int t = tiles[next];
        int h2 = h - dist[t][next] + dist[t][blank];
        int f2 = g + 1 + h2;
        if (f2 > bound) {
            if (f2 < next_bound)
                next_bound = f2;
            continue;
        }
        tiles[blank] = t;
        tiles[next] = 0;
        int found = dfs(next, blank, g + 1, h2);
        tiles[next] = t;
        tiles[blank] = 0;
        if (found)
            return 1;
    }
    return 0;
}

static void tables(void)
{
    for (int t = 1; t < CELLS; t++)
        for (int c = 0; c < CELLS; c++)
            dist[t][c] = abs(t / SIDE - c / SIDE) + abs(t % SIDE - c % SIDE);
    for (int c = 0; c < CELLS; c++) {
        int r = c / SIDE, col = c % SIDE, n = 0;
        if (r > 0)
            nbr[c][n++] = c - SIDE; /* up */
        if (col > 0)
            nbr[c][n++] = c - 1; /* left */
        if (col < SIDE - 1)
            nbr[c][n++] = c + 1; /* right */
        if (r < SIDE - 1)
            nbr[c][n++] = c + SIDE; /* down */
        nnbr[c] = n;
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s KORF_TSV\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    tables();
    char line[512];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        if (++lineno == 1 || line[0] == '\n')
            continue;
        char *last = strrchr(line, '\t');
        int id = atoi(line);
        if (!last || sscanf(last + 1, "%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d",
                            &tiles[0], &tiles[1], &tiles[2], &tiles[3], &tiles[4], &tiles[5],
                            &tiles[6], &tiles[7], &tiles[8], &tiles[9], &tiles[10], &tiles[11],
                            &tiles[12], &tiles[13], &tiles[14], &tiles[15]) != 16) {
            fprintf(stderr, "%s:%d: expected 16 tiles in the last field\n", argv[1], lineno);
            return 1;
        }
        int blank = 0, h = 0;
        for (int c = 0; c < CELLS; c++) {
            if (tiles[c] == 0)
                blank = c;
            else
                h += dist[tiles[c]][c];
        }
        struct timespec a, b;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
        generated = 1; /* the root, once */
        expanded = 0;
        bound = h;
        for (;;) {
            next_bound = 1 << 30;
            if (dfs(blank, -1, 0, h))
                break;
            bound = next_bound;
        }
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
        double s = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
        printf("%d\t%d\t%llu\t%llu\t%.6f\n", id, solution, generated, expanded, s);
        fflush(stdout);
    }
    fclose(f);
    return 0;
}
