/* lib_small: lib.c at the study's first input, the benchmark's 4096 paths (64 CTAs: 0.3
 * waves on 30 cores of 8 CTAs). Kept to measure what the scaled input changes ("From weft
 * to the paper", `weft eval capri`). */
#define NPATH 4096
#include "lib.c"
