/* bfs: breadth-first search, thread per node (CAPRI Table 2's BFS: the GPGPU-Sim/ISPASS
 * benchmark, Harish & Narayanan's HiPC'07 kernel on its 65536-node graph, 256-thread CTAs).
 * The original relaunches one kernel per level over the whole graph; its single kernel
 * marks the next frontier in place, which is racy (the result depends on the schedule), so
 * this is Rodinia's later form of the same code: a level is two passes, the frontier
 * visit (`if (mask[tid])`, the node's edge loop of variable length, `if (!visited[id])`)
 * and the update (`if (updating[tid])`), which set the `over` flag.
 * weft has one launch and CTA-wide barriers only, so the nodes form independent graphs
 * of 256 nodes, one per CTA: 600 of them (153 600 nodes, 2.3 times the benchmark's
 * graph, so that 30 cores holding 4 CTAs each run five waves, not two), and weft_barrier stands where the original returns to
 * the host between kernels. Node n of a CTA is its thread n, as in the original. Graphs as
 * Rodinia's graphgen makes them (each node starts 2 to 4 edges to uniformly random nodes of
 * its graph, every edge in both directions: mean degree 6, as graph65536's), searched from
 * the CTA's node 0. weft_setup also runs a serial BFS per graph into expected_cost. */
#include "weft.h"

/* The input generator's seed (`weft eval capri` runs two more with -DSEED=N). */
#ifndef SEED
#define SEED 2012u
#endif

#define CTA 256
#ifndef GRAPHS /* the study's first input sets it */
#define GRAPHS 600
#endif
#define NODES (GRAPHS * CTA)
#define MAX_EDGES (NODES * 4 * 2)
WEFT_LAUNCH(NODES, CTA);

struct node {
    int32_t starting, no_of_edges;
};
struct node nodes[NODES];
int32_t edges[MAX_EDGES];
uint8_t mask[NODES], updating[NODES], visited[NODES];
int32_t cost[NODES], expected_cost[NODES];
uint32_t over[GRAPHS];

static uint32_t pair_from[MAX_EDGES / 2], pair_to[MAX_EDGES / 2];
static uint32_t fill[NODES], queue[CTA];

void weft_setup(void) {
    uint32_t s = SEED, pairs = 0;
    for (uint32_t n = 0; n < NODES; n++) {
        s = s * 1664525u + 1013904223u;
        uint32_t k = 2 + (s >> 16) % 3, base = n / CTA * CTA;
        for (uint32_t e = 0; e < k; e++) {
            s = s * 1664525u + 1013904223u;
            pair_from[pairs] = n;
            pair_to[pairs++] = base + (s >> 8) % CTA;
        }
    }
    /* Compressed rows of the undirected graphs (edges of a node in one run). */
    for (uint32_t p = 0; p < pairs; p++) {
        nodes[pair_from[p]].no_of_edges++;
        nodes[pair_to[p]].no_of_edges++;
    }
    for (uint32_t n = 1; n < NODES; n++)
        nodes[n].starting = nodes[n - 1].starting + nodes[n - 1].no_of_edges;
    for (uint32_t p = 0; p < pairs; p++) {
        uint32_t a = pair_from[p], b = pair_to[p];
        edges[nodes[a].starting + fill[a]++] = (int32_t)b;
        edges[nodes[b].starting + fill[b]++] = (int32_t)a;
    }
    for (uint32_t n = 0; n < NODES; n++) cost[n] = expected_cost[n] = -1;
    /* The sources, and the serial reference: a queue-based BFS of each graph. */
    for (uint32_t g = 0; g < GRAPHS; g++) {
        uint32_t src = g * CTA, head = 0, tail = 0;
        mask[src] = visited[src] = 1;
        cost[src] = expected_cost[src] = 0;
        queue[tail++] = src;
        while (head < tail) {
            uint32_t n = queue[head++];
            for (int32_t e = nodes[n].starting; e < nodes[n].starting + nodes[n].no_of_edges; e++) {
                uint32_t d = (uint32_t)edges[e];
                if (expected_cost[d] < 0) {
                    expected_cost[d] = expected_cost[n] + 1;
                    queue[tail++] = d;
                }
            }
        }
    }
}

void weft_kernel(void) {
    uint32_t tid = weft_tid(), graph = weft_ctaid();
    for (;;) {
        /* Kernel: the frontier visits its neighbours. */
        if (mask[tid]) {
            mask[tid] = 0;
            for (int32_t i = nodes[tid].starting; i < nodes[tid].no_of_edges + nodes[tid].starting; i++) {
                int32_t id = edges[i];
                if (!visited[id]) {
                    cost[id] = cost[tid] + 1;
                    updating[id] = 1;
                }
            }
        }
        weft_barrier();
        /* Kernel2: the marked nodes form the next frontier. */
        if (updating[tid]) {
            mask[tid] = 1;
            visited[tid] = 1;
            over[graph] = 1;
            updating[tid] = 0;
        }
        weft_barrier();
        /* The host's loop test, then its reset of the flag. */
        uint32_t go = over[graph];
        weft_barrier();
        if (tid % CTA == 0) over[graph] = 0;
        if (!go) break;
    }
}
