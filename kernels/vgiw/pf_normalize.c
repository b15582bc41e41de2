/* pf_normalize: Rodinia's particlefilter normalize_weights_kernel (the VGIW paper's Table 2
 * PF normalize_weights_kernel, 5 basic blocks): thread 0 of the CTA reads the sum of the
 * weights (partial_sums[0], left by sum_kernel) into a WEFT_SHARED variable; a barrier;
 * every thread divides its particle's weight by it; a barrier; thread 0 alone builds
 * the CDF of the weights (cdfCalc: a serial loop over every particle) and draws u[0]
 * from its seed (d_randu: an LCG step, A = 1103515245, C = 12345, M = INT_MAX); a
 * barrier; thread 0 reads u[0] into a WEFT_SHARED variable; a barrier; every thread
 * writes u[i] = u1 + i / Nparticles.
 * Cross-CTA reads: Rodinia launches it in CTAs of 512 threads (threads_per_block), and
 * thread 0 of CTA 0 reads every particle's weight, which other CTAs normalise, while
 * every CTA's thread 0 reads u[0], which CTA 0 writes: no barrier orders a CTA after
 * another, so with several CTAs the CDF and u depend on the CTAs' timing. weft launches
 * the published particle count (particlefilter -np 1000) as one CTA of 1000 threads (a
 * Fermi SM's CTAs may hold 1 024), so those reads are ordered by the CTA's own barriers
 * and the result is what Rodinia's sequential version computes: the CDF of the
 * normalised weights and u[0] from seed[0]. The price: one CTA of 1000 threads (two
 * thirds of a Fermi SM's 1 536) where Rodinia's grid has two.
 * Rodinia's weights, CDF and u are doubles: float here (RV32IMF has no doubles), as
 * Rodinia's own float version. Inputs: weights from a seeded LCG (as the likelihood
 * kernel would leave them), partial_sums[0] their serial sum, seeds from an LCG
 * (Rodinia: time(0) * i). weft_setup also computes the serial references (expected_*),
 * in the kernel's order, which the tests compare with the outputs. */
#include "weft.h"

#define NPARTICLES 1000
#define A_ 1103515245
#define C_ 12345
#define M_ 2147483647
WEFT_LAUNCH(NPARTICLES, NPARTICLES);

float weights[NPARTICLES] __attribute__((aligned(128)));
float partial_sums[NPARTICLES];
float CDF[NPARTICLES] __attribute__((aligned(128)));
float u[NPARTICLES] __attribute__((aligned(128)));
int32_t seed[NPARTICLES];
float expected_weights[NPARTICLES];
float expected_CDF[NPARTICLES];
float expected_u[NPARTICLES];
int32_t expected_seed[NPARTICLES];

/* normalize_weights_kernel's argument. */
int32_t Nparticles;

WEFT_SHARED float u1;
WEFT_SHARED float sumWeights;

static void cdfCalc(float *cdf, const float *w, int n) {
    cdf[0] = w[0];
    for (int x = 1; x < n; x++) cdf[x] = w[x] + cdf[x - 1];
}

/* Rodinia's d_randu: int arithmetic wraps on the GPU; here through uint32_t. */
static float d_randu(int32_t *s, int index) {
    int32_t num = (int32_t)((uint32_t)A_ * (uint32_t)s[index] + (uint32_t)C_);
    s[index] = num % M_;
    return __builtin_fabsf((float)s[index] / (float)M_);
}

void weft_setup(void) {
    Nparticles = NPARTICLES;
    uint32_t s = 2015;
    float sum = 0.0f;
    for (int i = 0; i < NPARTICLES; i++) {
        s = s * 1664525u + 1013904223u;
        weights[i] = (float)(s >> 8) / 16777216.0f + 0.001f;
        sum += weights[i];
        s = s * 1664525u + 1013904223u;
        seed[i] = (int32_t)(s >> 1);
        expected_seed[i] = seed[i];
    }
    partial_sums[0] = sum;
    /* The serial references, in the kernel's order. */
    for (int i = 0; i < NPARTICLES; i++) expected_weights[i] = weights[i] / partial_sums[0];
    cdfCalc(expected_CDF, expected_weights, NPARTICLES);
    expected_u[0] = (1 / ((float)NPARTICLES)) * d_randu(expected_seed, 0);
    float first = expected_u[0];
    for (int i = 0; i < NPARTICLES; i++) expected_u[i] = first + i / ((float)NPARTICLES);
}

void weft_kernel(void) {
    int block_id = (int)weft_ctaid();
    int tx = (int)(weft_tid() % weft_cta_size());
    int i = (int)weft_cta_size() * block_id + tx;
    if (0 == tx) sumWeights = partial_sums[0];
    weft_barrier();
    if (i < Nparticles) weights[i] = weights[i] / sumWeights;
    weft_barrier();
    if (i == 0) {
        cdfCalc(CDF, weights, Nparticles);
        u[0] = (1 / ((float)(Nparticles))) * d_randu(seed, i);
    }
    weft_barrier();
    if (0 == tx) u1 = u[0];
    weft_barrier();
    if (i < Nparticles) u[i] = u1 + i / ((float)(Nparticles));
}
