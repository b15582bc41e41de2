/* pflt: a particle filter tracking a disk through a noisy video (CAPRI Table 2's PFLT,
 * after Rodinia's particlefilter, float version). One thread per particle runs, for one
 * frame step, the per-particle parts of Rodinia's kernels in their order:
 *   find_index_kernel (resampling after frame 1): `for (x = 0; x < Nparticles; x++) if
 *     (CDF[x] >= u[i]) {index = x; break;}` with u[i] = u1 + i / Nparticles increasing in
 *     i, so the threads of a warp leave the loop within a few iterations of each other
 *     (the kernel's only divergence); then xj = arrayX[index], yj = arrayY[index];
 *   likelihood_kernel (frame 2): the particle moves from (xj, yj) to (nextX, nextY;
 *     Rodinia's arrayX, which other threads still read here) by its own LCG and
 *     Box-Muller normals (d_randu / d_randn), writes the 69 pixel indices of the disk of
 *     radius 5 around it (Rodinia's strelDisk; `if (ind >= max_size) ind = 0`), sums the
 *     likelihood over those pixels (gathers from the video) and updates its weight by
 *     expf.
 * The steps between them need every particle (the sum of the weights, the CDF), so
 * weft_setup runs frame 1 serially: the particles' moves and likelihoods, the normalised
 * weights (relative to the largest: in float, Rodinia's expf of a likelihood of +-327
 * overflows), the CDF and u. The kernel's own weight update keeps Rodinia's expf, so a
 * particle on the object gets an infinite weight there too. Rodinia's __syncthreads()
 * at the end of find_index_kernel guards no shared data and is left out.
 * Inputs: Rodinia's video (128 x 128 pixels, 10 frames, a disk of 228 moving by (+1, -2)
 * per frame on 100, noise 5 N(0,1)) from a seeded LCG, particles starting at the centre,
 * particle seeds from an LCG (Rodinia: time(0) * i). Nparticles = 3072 a filter in CTAs of
 * 512 (Rodinia's threads_per_block): the resampling loop makes the work quadratic in the
 * particles (the paper counts 4 G thread instructions), so two waves of 30 cores as one
 * filter (61 440 particles) would need 9 G. Scaled instead to FILTERS = 30 independent
 * filters of 3072 particles on the same video, each with its own seeds, CDF and u (180
 * CTAs: three waves of 30 cores of 2 CTAs; the study's first input is one filter, 6 CTAs,
 * 0.1 waves: pflt_small.c). A thread's work is Rodinia's, but a CTA's grows with its place
 * in its filter (its particles' u, so their resampling loops, come later: the last of a
 * filter's 6 CTAs costs several times the first). Launched in filter order (Rodinia's
 * blockIdx order, filter after filter), 20 filters leave WPDOM a tail of 24.9% of its
 * core-cycles; so the grid launches the filters' CTAs last chunk first (weft's choice: a
 * stated order, each CTA's particles Rodinia's), 13.8% at 20 filters and 8.1% at 30
 * (1.13 G thread instructions). cos and log are written out, branch-free as the GPU's
 * are. */
#include "weft.h"

/* The input generator's seed (`weft eval capri` runs two more with -DSEED=N). */
#ifndef SEED
#define SEED 1234u
#endif

#define NP 3072 /* particles a filter */
#ifndef FILTERS /* the study's first input sets it */
#define FILTERS 30
#endif
#define NT (FILTERS * NP) /* particles, one thread each */
#define ISZX 128
#define ISZY 128
#define NFR 10
#define MAX_SIZE (ISZX * ISZY * NFR)
#define DISK 9
#define COUNT_ONES 69
#define INT_MAX_ 2147483647
#define CTA 512 /* Rodinia's threads_per_block */
#define CHUNKS (NP / CTA) /* CTAs a filter */
WEFT_LAUNCH(NT, CTA);

int32_t video[MAX_SIZE];
int32_t objxy[COUNT_ONES * 2];
int32_t seed[NT];
float arrayX[NT], arrayY[NT], xj[NT], yj[NT], nextX[NT], nextY[NT];
float CDF[NT], u[NT], weights[NT], likelihood[NT];
int32_t ind[NT * COUNT_ONES];

static float from_bits(uint32_t b) {
    union { uint32_t b; float f; } v = {b};
    return v.f;
}
static uint32_t to_bits(float f) {
    union { float f; uint32_t b; } v = {f};
    return v.b;
}
/* Selects without a branch: c ? a : b. */
static uint32_t mask(int c) {
    uint32_t m = -(uint32_t)c;
    __asm__ volatile("" : "+r"(m));
    return m;
}
static float pickf(int c, float a, float b) {
    uint32_t m = mask(c);
    return from_bits((to_bits(a) & m) | (to_bits(b) & ~m));
}
static int32_t picki(int c, int32_t a, int32_t b) {
    uint32_t m = mask(c);
    return (int32_t)(((uint32_t)a & m) | ((uint32_t)b & ~m));
}

/* ln x for x > 0: x = m 2^e with m in [0.75, 1.5), ln m = 2 atanh((m-1)/(m+1)). */
static float ln(float x) {
    uint32_t b = to_bits(x);
    int big = (b & 0x007fffff) >= 0x00400000; /* m >= 1.5 */
    int e = (int)(b >> 23) - 127 + big;
    float m = from_bits((b & 0x007fffff) | 0x3f800000) * pickf(big, 0.5f, 1.0f);
    float f = (m - 1.0f) / (m + 1.0f), f2 = f * f;
    float series = f * (2.0f + f2 * (0.6666667f + f2 * (0.4f + f2 * (0.2857143f + f2 * 0.2222222f))));
    return series + (float)e * 0.69314718f;
}

/* cos(2 pi v) for v in [0, 1]: fold to [0, 1/4], then the Taylor polynomial. */
static float cos2pi(float v) {
    float a = __builtin_fminf(v, 1.0f - v); /* cos is even about 1/2 */
    int near = a < 0.25f;
    a = pickf(near, a, 0.5f - a);
    float x = 6.2831853f * a, x2 = x * x;
    float c = 1.0f - x2 * (0.5f - x2 * (0.041666667f - x2 * (0.0013888889f - x2 * 0.0000248016f)));
    return pickf(near, c, -c);
}

/* expf: x = k ln 2 + r, e^r by its Taylor polynomial, times 2^k; 0 below -87, infinity
 * above 88.7. */
static float ex(float x) {
    float kf = x * 1.44269504f;
    int k = (int)(kf + pickf(kf < 0.0f, -0.5f, 0.5f));
    float r = x - (float)k * 0.69314718f;
    float p = 1.0f + r * (1.0f + r * (0.5f + r * (0.16666667f + r * (0.041666667f + r * (0.0083333333f + r * 0.0013888889f)))));
    float e = p * from_bits((uint32_t)(k + 127) << 23);
    e = pickf(x > 88.7f, from_bits(0x7f800000), e);
    return pickf(x < -87.0f, 0.0f, e);
}

/* Rodinia's d_randu: an LCG per particle (int arithmetic wrapping), |seed / INT_MAX|. */
static float randu(int32_t *s, int i) {
    int32_t num = (int32_t)(1103515245u * (uint32_t)s[i] + 12345u);
    s[i] = num % INT_MAX_;
    return __builtin_fabsf((float)s[i] / (float)INT_MAX_);
}
static float randn(int32_t *s, int i) {
    float a = randu(s, i), b = randu(s, i);
    return __builtin_sqrtf(-2.0f * ln(a)) * cos2pi(b);
}

/* The particle moves from (x, y) and its likelihood at frame k (Rodinia's
 * likelihood_kernel and calcLikelihoodSum; dev_round_float truncates). */
static float move_and_likelihood(int i, float x, float y, int k, int32_t *s, float *ax, float *ay) {
    x = x + 1.0f + 5.0f * randn(s, i);
    y = y - 2.0f + 2.0f * randn(s, i);
    *ax = x;
    *ay = y;
    for (int d = 0; d < COUNT_ONES; d++) {
        int32_t indX = (int32_t)x + objxy[d * 2 + 1], indY = (int32_t)y + objxy[d * 2];
        int32_t at = indX * ISZY * NFR + indY * NFR + k;
        at = at < 0 ? -at : at;
        ind[i * COUNT_ONES + d] = picki(at >= MAX_SIZE, 0, at);
    }
    float sum = 0.0f;
    for (int d = 0; d < COUNT_ONES; d++) {
        int32_t p = video[ind[i * COUNT_ONES + d]];
        sum += (float)((p - 100) * (p - 100) - (p - 228) * (p - 228)) / 50.0f;
    }
    return sum / (float)COUNT_ONES;
}

void weft_setup(void) {
    uint32_t s = SEED;
#define UNIFORM() (s = s * 1664525u + 1013904223u, ((float)(s >> 8) + 0.5f) / 16777216.0f)
    /* The video: the object's centre per frame, dilated to a disk of radius 5, 228 on 100,
     * plus noise (Rodinia's videoSequence, its x and y as it indexes them). */
    int x0 = 64, y0 = 64;
    for (int k = 0; k < NFR; k++) {
        int xk = k == 0 ? x0 : x0 + (k - 1), yk = k == 0 ? y0 : y0 - 2 * (k - 1);
        if (xk < 0) xk = -xk;
        if (yk < 0) yk = -yk;
        for (int x = 0; x < ISZX; x++)
            for (int y = 0; y < ISZY; y++) {
                int dx = x - (k == 0 ? x0 : yk), dy = y - (k == 0 ? y0 : xk);
                int on = dx * dx + dy * dy < 25;
                float a = UNIFORM(), b = UNIFORM();
                float noise = 5.0f * __builtin_sqrtf(-2.0f * ln(a)) * cos2pi(b);
                video[x * ISZY * NFR + y * NFR + k] = (on ? 228 : 100) + (int32_t)noise;
            }
    }
    /* Rodinia's strelDisk and getneighbors: offsets of the 9 x 9 disk, distance < 5. */
    int n = 0;
    for (int x = 0; x < DISK; x++)
        for (int y = 0; y < DISK; y++)
            if ((x - 4) * (x - 4) + (y - 4) * (y - 4) < 25) {
                objxy[n * 2] = y - 4;
                objxy[n * 2 + 1] = x - 4;
                n++;
            }
    uint32_t t = 7;
    for (int i = 0; i < NT; i++) {
        t = t * 1664525u + 1013904223u;
        seed[i] = (int32_t)(t >> 1);
    }
    /* Frame 1 of each filter, serially: every particle from the centre, its likelihood,
     * the normalised weights, the CDF and u. */
    for (int f = 0; f < FILTERS; f++) {
        int p0 = f * NP;
        float top = -1e30f;
        for (int i = p0; i < p0 + NP; i++) {
            likelihood[i] = move_and_likelihood(i, 64.0f, 64.0f, 1, seed, &arrayX[i], &arrayY[i]);
            if (likelihood[i] > top) top = likelihood[i];
        }
        float total = 0.0f;
        for (int i = p0; i < p0 + NP; i++) total += weights[i] = ex(likelihood[i] - top);
        for (int i = p0; i < p0 + NP; i++) weights[i] /= total;
        CDF[p0] = weights[p0];
        for (int i = p0 + 1; i < p0 + NP; i++) CDF[i] = weights[i] + CDF[i - 1];
        float u1 = (1.0f / (float)NP) * randu(seed, p0);
        for (int i = 0; i < NP; i++) u[p0 + i] = u1 + (float)i / (float)NP;
    }
}

void weft_kernel(void) {
    /* CTA c runs chunk CHUNKS - 1 - c / FILTERS of filter c % FILTERS: the grid launches
     * every filter's last chunk first (their resampling loops are the longest), then the
     * second last, ..., so the cheap first chunks fill the last wave. */
    int t = (int)weft_tid(), c = t / CTA;
    int p0 = c % FILTERS * NP;                               /* its filter's first particle */
    int i = p0 + (CHUNKS - 1 - c / FILTERS) * CTA + t % CTA; /* the particle */
    const float *cdf = CDF + p0;                 /* its filter's CDF */
    /* find_index_kernel */
    int index = -1;
    for (int x = 0; x < NP; x++) {
        if (cdf[x] >= u[i]) {
            index = x;
            break;
        }
    }
    index = p0 + picki(index == -1, NP - 1, index);
    xj[i] = arrayX[index];
    yj[i] = arrayY[index];
    /* likelihood_kernel, frame 2 (it starts from the resampled particle) */
    likelihood[i] = move_and_likelihood(i, xj[i], yj[i], 2, seed, &nextX[i], &nextY[i]);
    weights[i] = (1.0f / (float)NP) * ex(likelihood[i]);
}
