/* bfs_small: bfs.c at the study's first input, 256 graphs (65 536 nodes, the benchmark's
 * graph65536 size): 2.1 waves on 30 cores of 4 CTAs. Kept to measure what the scaled
 * input changes ("From weft to the paper", `weft eval capri`). */
#define GRAPHS 256
#include "bfs.c"
