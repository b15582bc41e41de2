/* mumpp_small: mumpp.c at the study's first input, 9 984 queries (39 CTAs: 0.3 waves on 30 cores
 * of 4 CTAs). Kept to measure what the scaled input changes ("From weft to the paper",
 * `weft eval capri`). */
#define CTAS 39
#include "mumpp.c"
