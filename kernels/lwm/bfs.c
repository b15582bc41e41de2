/* bfs: breadth-first search from node 0 (LWM Table 2's bfs, after Rodinia's). The graph
 * follows Rodinia's graphgen: 16384 nodes, each with 2 to 4 edges to uniformly random
 * nodes, every edge in both directions, in compressed rows. One CTA of 1024 threads
 * (node n belongs to thread n % 1024) iterates the levels as Rodinia's two kernels do:
 * a frontier node visits its edges and marks the unvisited ends (cost = its cost + 1,
 * the same value from every writer); after weft_barrier the marked nodes join the
 * frontier and set the continue flag; the flag is read after a barrier. weft_setup also
 * runs a serial BFS into expected_cost, which the tests compare with cost. */
#include "weft.h"

#define N 1024
#define NODES 16384
#define MAX_EDGES (NODES * 4 * 2)
WEFT_LAUNCH(N, N);

uint32_t first_edge[NODES + 1];
uint32_t edges[MAX_EDGES];
uint8_t mask[NODES], updating[NODES], visited[NODES];
int32_t cost[NODES], expected_cost[NODES];
uint32_t again;

static uint32_t pair_from[MAX_EDGES / 2], pair_to[MAX_EDGES / 2];
static uint32_t queue[NODES];

void weft_setup(void) {
    uint32_t s = 1337, pairs = 0;
    for (uint32_t n = 0; n < NODES; n++) {
        s = s * 1664525u + 1013904223u;
        uint32_t k = 2 + (s >> 16) % 3;
        for (uint32_t e = 0; e < k; e++) {
            s = s * 1664525u + 1013904223u;
            pair_from[pairs] = n;
            pair_to[pairs++] = (s >> 8) % NODES;
        }
    }
    /* Compressed rows of the undirected graph. */
    for (uint32_t p = 0; p < pairs; p++) {
        first_edge[pair_from[p] + 1]++;
        first_edge[pair_to[p] + 1]++;
    }
    for (uint32_t n = 0; n < NODES; n++) first_edge[n + 1] += first_edge[n];
    static uint32_t fill[NODES];
    for (uint32_t p = 0; p < pairs; p++) {
        uint32_t a = pair_from[p], b = pair_to[p];
        edges[first_edge[a] + fill[a]++] = b;
        edges[first_edge[b] + fill[b]++] = a;
    }
    for (uint32_t n = 0; n < NODES; n++) cost[n] = expected_cost[n] = -1;
    mask[0] = visited[0] = 1;
    cost[0] = 0;
    /* The serial reference. */
    uint32_t head = 0, tail = 0;
    queue[tail++] = 0;
    expected_cost[0] = 0;
    while (head < tail) {
        uint32_t n = queue[head++];
        for (uint32_t e = first_edge[n]; e < first_edge[n + 1]; e++)
            if (expected_cost[edges[e]] < 0) {
                expected_cost[edges[e]] = expected_cost[n] + 1;
                queue[tail++] = edges[e];
            }
    }
}

void weft_kernel(void) {
    uint32_t tid = weft_tid();
    for (;;) {
        for (uint32_t n = tid; n < NODES; n += N)
            if (mask[n]) {
                mask[n] = 0;
                for (uint32_t e = first_edge[n]; e < first_edge[n + 1]; e++) {
                    uint32_t d = edges[e];
                    if (!visited[d]) {
                        cost[d] = cost[n] + 1;
                        updating[d] = 1;
                    }
                }
            }
        weft_barrier();
        for (uint32_t n = tid; n < NODES; n += N)
            if (updating[n]) {
                mask[n] = visited[n] = 1;
                again = 1;
                updating[n] = 0;
            }
        weft_barrier();
        uint32_t go = again;
        weft_barrier();
        if (tid == 0) again = 0;
        if (!go) break;
    }
}
