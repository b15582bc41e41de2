/* kmeans_invert: Rodinia's k-means, its kernel invert_mapping (VGIW paper Table 2's KMEANS
 * invert_mapping, 3 basic blocks): the feature matrix transposed from one point per row
 * to one feature per row (structure of arrays, so that the clustering kernel's loads
 * coalesce), thread p copying point p's features, `output[p + npoints i] =
 * input[p nfeatures + i]`, in a loop of nfeatures; threads past the last point do
 * nothing. Input: Rodinia's kdd_cup has 494 020 points of 34 features; here its 34
 * features and 16 384 points (a stated scaling: the kernel's work per point is the same,
 * a launch of 16 384 threads fills the machine) of seeded LCG values in [0, 1) (the
 * values do not change the control flow). CTAs of 256 (Rodinia's num_threads_perdim *
 * num_threads_perdim with BLOCK_SIZE 256); the kernel's arguments (npoints, nfeatures)
 * are globals. */
#include "weft.h"

#define POINTS 16384
#define FEATURES 34
#define CTA 256
WEFT_LAUNCH(POINTS, CTA);

float input[POINTS * FEATURES] __attribute__((aligned(128)));
float output[POINTS * FEATURES] __attribute__((aligned(128)));
/* invert_mapping's arguments. */
int32_t npoints, nfeatures;

void weft_setup(void) {
    uint32_t s = 494020;
    for (int i = 0; i < POINTS * FEATURES; i++) {
        s = s * 1664525u + 1013904223u;
        input[i] = (float)(s >> 8) / 16777216.0f;
    }
    npoints = POINTS;
    nfeatures = FEATURES;
}

/* Rodinia's invert_mapping. */
void weft_kernel(void) {
    int point_id = (int)weft_tid();
    int i;
    if (point_id < npoints) {
        for (i = 0; i < nfeatures; i++) output[point_id + npoints * i] = input[point_id * nfeatures + i];
    }
}
