/* backp_small: backp.c at the study's first input, 4 096 input units (256 CTAs, 2.1 waves
 * on 30 cores of 4 CTAs). Kept to measure what the scaled input changes ("From weft to
 * the paper", `weft eval capri`). */
#define IN 4096
#include "backp.c"
