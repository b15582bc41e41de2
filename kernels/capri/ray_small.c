/* ray_small: ray.c at the study's first input, a 256 x 240 image (480 CTAs, two waves on
 * 30 cores of 8 CTAs). Kept to measure what the scaled input changes ("From weft to the
 * paper", `weft eval capri`). */
#define W 256
#define H 240
#include "ray.c"
