/* cfd_small: cfd.c at the study's first input, a 40 x 48 x 32 lattice (61 440 elements,
 * 320 CTAs: 2.1 waves on 30 cores of 5 CTAs). Kept to measure what the scaled input
 * changes ("From weft to the paper", `weft eval capri`). */
#define NX 40
#define NY 48
#define NZ 32
#include "cfd.c"
