/* bfs2: Rodinia's breadth-first search, its second kernel, Kernel2 (VGIW paper Table 2's
 * BFS Kernel2, 3 basic blocks): bfs.c with BFS_KERNEL2, which says the graph, the search
 * and the launch. Every node marked `updating` joins the frontier, is marked visited and
 * sets the host's `over` flag. The launch is the one that makes the widest level the
 * frontier: bfs.c's launch starts from the state this one leaves (but for `over`). */
#define BFS_KERNEL2
#include "bfs.c"
