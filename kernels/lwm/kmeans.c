/* kmeans: the assignment step of k-means clustering, modelled on the "kmeans" benchmark
 * of the LWM paper (Table 2; Rodinia's kmeans kernel). 4096 points of F=16 float
 * features, stored feature-major (feature f of point p at f*NP+p, coalesced); thread
 * tid handles points tid, tid+1024, ...; for each it loops over K=32 centres, sums the
 * squared distance over the features and keeps the nearest with
 * if (d < best) {best = d; idx = k}; writes the assignment and the distance. Input:
 * points scattered (sum of 3 uniforms) around 32 random true centres by an LCG (seed
 * 31337) in weft_setup; the initial centres are the first K points, as in Rodinia. */
#include "weft.h"

#define N 1024
#define PPT 4          /* points per thread */
#define NP (N * PPT)   /* points */
#define F 16           /* features */
#define K 32           /* centres */
WEFT_LAUNCH(N, 256);

float features[F * NP];
float centres[K * F];
int32_t membership[NP];
float distance[NP];

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }
static float unit(uint32_t *s) { return (float)(lcg(s) >> 8) * (1.0f / 16777216.0f); }

void weft_setup(void) {
    uint32_t s = 31337;
    float truth[K][F];
    for (int k = 0; k < K; k++)
        for (int f = 0; f < F; f++) truth[k][f] = unit(&s) * 100.0f;
    for (int p = 0; p < NP; p++) {
        uint32_t c = lcg(&s) >> 27; /* 0..31 */
        for (int f = 0; f < F; f++) {
            float noise = (unit(&s) + unit(&s) + unit(&s) - 1.5f) * 20.0f;
            features[f * NP + p] = truth[c][f] + noise;
        }
    }
    for (int k = 0; k < K; k++)
        for (int f = 0; f < F; f++) centres[k * F + f] = features[f * NP + k];
}

void weft_kernel(void) {
    uint32_t t = weft_tid();
    for (uint32_t p = t; p < NP; p += N) {
        float best = 3.4e38f;
        int32_t idx = 0;
        for (int k = 0; k < K; k++) {
            float d = 0.0f;
            for (int f = 0; f < F; f++) {
                float diff = features[f * NP + p] - centres[k * F + f];
                d += diff * diff;
            }
            if (d < best) {
                best = d;
                idx = k;
            }
        }
        membership[p] = idx;
        distance[p] = best;
    }
}
