/* mum_small: mum.c at the study's first input, the original's 50 000 queries (196 CTAs,
 * the last partly idle: 1.6 waves on 30 cores of 4 CTAs). Kept to measure what the scaled
 * input changes ("From weft to the paper", `weft eval capri`). */
#define QUERIES 50000
#include "mum.c"
