/* bfs: Rodinia's breadth-first search, its first kernel, Kernel (VGIW paper Table 2's
 * BFS Kernel, 8 basic blocks); bfs2.c is its second kernel, Kernel2 (3 blocks), on the
 * same graph. Rodinia's host loop launches the two kernels once per level until no node
 * changes: Kernel lets every frontier node (`mask`) visit its edges (a loop of the node's
 * degree) and give each unvisited end the cost one above its own, marking it `updating`;
 * Kernel2 turns the marked nodes into the next frontier, marks them visited and sets the
 * host's `over` flag. One thread per node (`if (tid < no_of_nodes && mask[tid])`), so the
 * frontier test diverges and the edge loop gathers from anywhere in the graph.
 * The graph follows Rodinia's graphgen: each node starts 2 to 4 edges to uniformly random
 * nodes, every edge in both directions (mean degree 6, as Rodinia's graph65536 and
 * graph1MW_6 inputs), nodes as {starting, no_of_edges} and one edge array, searched from
 * node 0. 262 144 nodes, between those two inputs: at 65 536 nodes Kernel2's launch runs
 * only 1.1 M thread instructions. The widest level (8) holds 117 489 nodes, 45 %.
 * The flags are 32-bit words (Rodinia's are bools, but several threads write the same
 * `updating` and `over`). One representative launch: weft_setup runs the search serially
 * and leaves the state Rodinia's loop has when Kernel starts the level with the widest
 * frontier (`mask` that level, `visited` and `cost` the levels up to it, `updating`
 * clear); bfs2.c starts Kernel2 one step earlier, when the Kernel of the level before has
 * marked that widest level `updating`. Every writer of a node's `cost` writes the same
 * value (the frontier's cost + 1), so the result does not depend on the schedule.
 * CTAs of 512 (Rodinia's MAX_THREADS_PER_BLOCK). */
#include "weft.h"

#define NODES 262144
#define CTA 512
#define MAX_EDGES (NODES * 4 * 2)
WEFT_LAUNCH(NODES, CTA);

struct node {
    int32_t starting, no_of_edges;
};
struct node graph_nodes[NODES];
int32_t graph_edges[MAX_EDGES];
uint32_t graph_mask[NODES], updating_graph_mask[NODES], graph_visited[NODES];
int32_t cost[NODES];
/* Rodinia's kernel arguments: the node count and the host's continue flag. */
int32_t no_of_nodes;
uint32_t over;
/* The level Kernel visits in this launch (bfs2.c: the level Kernel2 makes the frontier). */
int32_t level;

static uint32_t pair_from[MAX_EDGES / 2], pair_to[MAX_EDGES / 2];
static uint32_t fill[NODES], queue[NODES], level_size[NODES];
static int32_t depth[NODES];

void weft_setup(void) {
    uint32_t s = 65536, pairs = 0;
    for (uint32_t n = 0; n < NODES; n++) {
        s = s * 1664525u + 1013904223u;
        uint32_t k = 2 + (s >> 16) % 3;
        for (uint32_t e = 0; e < k; e++) {
            s = s * 1664525u + 1013904223u;
            pair_from[pairs] = n;
            pair_to[pairs++] = (s >> 8) % NODES;
        }
    }
    /* Compressed rows of the undirected graph (a node's edges in one run). */
    for (uint32_t p = 0; p < pairs; p++) {
        graph_nodes[pair_from[p]].no_of_edges++;
        graph_nodes[pair_to[p]].no_of_edges++;
    }
    for (uint32_t n = 1; n < NODES; n++)
        graph_nodes[n].starting = graph_nodes[n - 1].starting + graph_nodes[n - 1].no_of_edges;
    for (uint32_t p = 0; p < pairs; p++) {
        uint32_t a = pair_from[p], b = pair_to[p];
        graph_edges[graph_nodes[a].starting + fill[a]++] = (int32_t)b;
        graph_edges[graph_nodes[b].starting + fill[b]++] = (int32_t)a;
    }
    /* The serial search from node 0: each node's level, and the widest level. */
    for (uint32_t n = 0; n < NODES; n++) depth[n] = -1;
    uint32_t head = 0, tail = 0;
    depth[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        uint32_t n = queue[head++];
        level_size[depth[n]]++;
        int32_t end = graph_nodes[n].starting + graph_nodes[n].no_of_edges;
        for (int32_t e = graph_nodes[n].starting; e < end; e++) {
            uint32_t d = (uint32_t)graph_edges[e];
            if (depth[d] < 0) {
                depth[d] = depth[n] + 1;
                queue[tail++] = d;
            }
        }
    }
    level = 0;
    for (int32_t l = 1; l < NODES; l++)
        if (level_size[l] > level_size[level]) level = l;
    /* The state before the launch: every level up to `level` found; for Kernel, that level
     * is the frontier; for Kernel2, the Kernel of the level before has just marked it. */
    for (uint32_t n = 0; n < NODES; n++) {
        int32_t found = depth[n] >= 0 && depth[n] <= level;
#ifdef BFS_KERNEL2
        graph_mask[n] = 0;
        updating_graph_mask[n] = found && depth[n] == level;
        graph_visited[n] = found && depth[n] < level;
#else
        graph_mask[n] = found && depth[n] == level;
        updating_graph_mask[n] = 0;
        graph_visited[n] = found;
#endif
        cost[n] = found ? depth[n] : -1;
    }
    no_of_nodes = NODES;
    over = 0;
}

#ifndef BFS_KERNEL2
/* Rodinia's Kernel. */
void weft_kernel(void) {
    int32_t tid = (int32_t)weft_tid();
    if (tid < no_of_nodes && graph_mask[tid]) {
        graph_mask[tid] = 0;
        for (int32_t i = graph_nodes[tid].starting;
             i < (graph_nodes[tid].no_of_edges + graph_nodes[tid].starting); i++) {
            int32_t id = graph_edges[i];
            if (!graph_visited[id]) {
                cost[id] = cost[tid] + 1;
                updating_graph_mask[id] = 1;
            }
        }
    }
}
#else
/* Rodinia's Kernel2. */
void weft_kernel(void) {
    int32_t tid = (int32_t)weft_tid();
    if (tid < no_of_nodes && updating_graph_mask[tid]) {
        graph_mask[tid] = 1;
        graph_visited[tid] = 1;
        over = 1;
        updating_graph_mask[tid] = 0;
    }
}
#endif
