/* tpacf_small: tpacf.c at the study's first input, 2 random sets (5 CTAs: 0.2 waves on 30
 * cores of 1 CTA). Kept to measure what the scaled input changes ("From weft to the
 * paper", `weft eval capri`). */
#define NUM_SETS 2
#include "tpacf.c"
