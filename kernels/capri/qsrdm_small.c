/* qsrdm_small: qsrdm.c at the study's first input, 160 CTAs of 384 threads (2.7 waves on
 * 30 cores of 2 CTAs). Kept to measure what the scaled input changes ("From weft to the
 * paper", `weft eval capri`). */
#define CTAS 160
#include "qsrdm.c"
