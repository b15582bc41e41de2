/* km: the assignment step of k-means, the KM kernel of the Diverge-on-Miss paper (§7.3.4,
 * Table 3: 5 thread instructions per memory op): MineBench's kmeans, "32 clusters", "roughly
 * half a million data points, each with 36 features", one thread per point.
 * As MineBench's find_nearest_point: points stored point-major (feature f of point p at
 * p*F+f, 144 B a point, so a warp's load of one feature touches 32 lines and the point is
 * then reused for all 32 centres), centres at k*F+f (the same address in every lane);
 * per point the squared Euclidean distance to each centre, the nearest kept with
 * if (d < best) {best = d; idx = k} (the first of equal ones wins); writes membership[p].
 * Choices:
 *   - NP = 4096 points (scaled down from ~0.5 M to keep the run within 5-40 M thread
 *     instructions); F = 36 features, K = 32 centres as the paper's;
 *   - one thread per point, CTA = one warp of 32 (4096 threads, 128 CTAs); a warp's
 *     working set is 4.6 KB of points plus 4.6 KB of centres, so one warp fits the 32 KB
 *     L1 (the paper's "excellent temporal locality and a small working set per warp");
 *   - only the distance step runs (the centre update is a reduction over threads, which the
 *     rule that every thread writes only its own outputs leaves out);
 *   - input: points scattered (sum of 3 uniforms) around 32 random true centres by an LCG
 *     (seed 4242) in weft_setup; the initial centres are the first K points, as MineBench
 *     takes them. */
#include "weft.h"

#define NP 4096 /* points, one per thread */
#define F 36    /* features */
#define K 32    /* centres */
WEFT_LAUNCH(NP, 32);

float x[NP * F];
float cen[K * F];
int32_t membership[NP];

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }
static float unit(uint32_t *s) { return (float)(lcg(s) >> 8) * (1.0f / 16777216.0f); }

void weft_setup(void) {
    uint32_t s = 4242;
    float truth[K][F];
    for (int k = 0; k < K; k++)
        for (int f = 0; f < F; f++) truth[k][f] = unit(&s) * 100.0f;
    for (int p = 0; p < NP; p++) {
        uint32_t c = lcg(&s) >> 27; /* 0..31 */
        for (int f = 0; f < F; f++) {
            float noise = (unit(&s) + unit(&s) + unit(&s) - 1.5f) * 20.0f;
            x[p * F + f] = truth[c][f] + noise;
        }
    }
    for (int k = 0; k < K; k++)
        for (int f = 0; f < F; f++) cen[k * F + f] = x[k * F + f];
}

void weft_kernel(void) {
    uint32_t p = weft_tid();
    const float *pt = &x[p * F];
    float best = 3.4e38f;
    int32_t idx = 0;
    for (int k = 0; k < K; k++) {
        const float *c = &cen[k * F];
        float d = 0.0f;
        for (int f = 0; f < F; f++) {
            float diff = pt[f] - c[f];
            d += diff * diff;
        }
        if (d < best) {
            best = d;
            idx = k;
        }
    }
    membership[p] = idx;
}
