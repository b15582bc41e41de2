/* pflt_small: pflt.c at the study's first input, one filter of 3072 particles (6 CTAs:
 * 0.1 waves on 30 cores of 2 CTAs). Kept to measure what the scaled input changes ("From
 * weft to the paper", `weft eval capri`). */
#define FILTERS 1
#include "pflt.c"
