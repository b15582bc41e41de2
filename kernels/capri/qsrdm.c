/* qsrdm: quasirandom sequence and inverse cumulative normal (CAPRI Table 2's QSRDM, after
 * the CUDA SDK's quasirandomGenerator). Two phases per thread, the SDK's two kernels
 * fused into one launch (they share nothing; the second generates its inputs on the fly):
 *   1. quasirandomGeneratorKernel: CTAs of 128 x 3 threads, the CTA's row y is the
 *      dimension; a grid-stride loop over positions pos computes
 *      `for (bit < 31) { if (data & 1) result ^= table[y][bit]; data >>= 1; }` with
 *      data = seed + pos, the `if` a branch as in the SDK's PTX (bit b of pos, b < 5,
 *      splits every warp the same way; higher bits are warp-uniform);
 *   2. inverseCNDKernel with no input: a grid-stride loop over pathN = 3 N uniformly
 *      spaced samples, each through MoroInvCNDgpu (Moro's central rational polynomial for
 *      |p - 0.5| < 0.42, a branch; the Chebyshev tail in log(-log p) otherwise, its
 *      `?:`s written as selects, which nvcc predicates).
 * Sizes: 300 CTAs of 384 threads (115 200; five waves of 30 cores of 2 CTAs), N = 76 800
 * positions per dimension (two per thread), pathN = 230 400 (two per thread); the SDK runs 128 CTAs over N = 1 048 576.
 * The direction table: Sobol's (primitive polynomials 1, x + 1, x^2 + x + 1) instead of
 * the SDK's Niederreiter table; the values never change the control flow. log is
 * written out as blackscholes does. */
#include "weft.h"

#define DIMS 3
#define CTA_X 128
#ifndef CTAS /* the study's first input sets it */
#define CTAS 300
#endif
#define THREADS (CTAS * CTA_X * DIMS)
#define N (2 * CTAS * CTA_X)
#define PATHS (DIMS * N)
#define RESOLUTION 31
#define INT_SCALE (1.0f / (float)0x80000001u)
WEFT_LAUNCH(THREADS, CTA_X *DIMS);

uint32_t table[DIMS][RESOLUTION];
float quasi[DIMS * N];
float normal[PATHS];

static float from_bits(uint32_t b) {
    union { uint32_t b; float f; } u = {b};
    return u.f;
}
static uint32_t to_bits(float f) {
    union { float f; uint32_t b; } u = {f};
    return u.b;
}

/* ln x for x > 0: x = m 2^e with m in [0.75, 1.5), ln m = 2 atanh((m-1)/(m+1)). */
static float ln(float x) {
    uint32_t b = to_bits(x);
    int e = (int)(b >> 23) - 127;
    float m = from_bits((b & 0x007fffff) | 0x3f800000);
    if (m >= 1.5f) {
        m *= 0.5f;
        e++;
    }
    float f = (m - 1.0f) / (m + 1.0f), f2 = f * f;
    float series = f * (2.0f + f2 * (0.6666667f + f2 * (0.4f + f2 * (0.2857143f + f2 * 0.2222222f))));
    return series + (float)e * 0.69314718f;
}

/* (c ? a : b) without a branch: nvcc predicates these. */
static uint32_t pick(int c, uint32_t a, uint32_t b) {
    uint32_t m = -(uint32_t)c;
    __asm__ volatile("" : "+r"(m));
    return (a & m) | (b & ~m);
}

static float moro_inv_cnd(float p) {
    const float a1 = 2.50662823884f, a2 = -18.61500062529f, a3 = 41.39119773534f,
                a4 = -25.44106049637f, b1 = -8.4735109309f, b2 = 23.08336743743f,
                b3 = -21.06224101826f, b4 = 3.13082909833f, c1 = 0.337475482272615f,
                c2 = 0.976169019091719f, c3 = 0.160797971491821f, c4 = 2.76438810333863e-02f,
                c5 = 3.8405729373609e-03f, c6 = 3.951896511919e-04f, c7 = 3.21767881768e-05f,
                c8 = 2.888167364e-07f, c9 = 3.960315187e-07f;
    float y = p - 0.5f, z;
    if (__builtin_fabsf(y) < 0.42f) {
        z = y * y;
        z = y * (((a4 * z + a3) * z + a2) * z + a1) / ((((b4 * z + b3) * z + b2) * z + b1) * z + 1.0f);
    } else {
        float q = from_bits(pick(y > 0.0f, to_bits(1.0f - p), to_bits(p)));
        z = ln(-ln(q));
        z = c1 + z * (c2 + z * (c3 + z * (c4 + z * (c5 + z * (c6 + z * (c7 + z * (c8 + z * c9)))))));
        z = from_bits(to_bits(z) ^ pick(y < 0.0f, 0x80000000u, 0));
    }
    return z;
}

void weft_setup(void) {
    /* Sobol direction numbers, 31 bits: v_k = m_k 2^(31 - k - 1). */
    for (int k = 0; k < RESOLUTION; k++) table[0][k] = 1u << (30 - k);
    table[1][0] = 1u << 30;
    for (int k = 1; k < RESOLUTION; k++) table[1][k] = table[1][k - 1] ^ (table[1][k - 1] >> 1);
    table[2][0] = 1u << 30;
    table[2][1] = 3u << 29;
    for (int k = 2; k < RESOLUTION; k++)
        table[2][k] = table[2][k - 2] ^ (table[2][k - 2] >> 2) ^ table[2][k - 1];
}

void weft_kernel(void) {
    uint32_t t = weft_tid() % (CTA_X * DIMS), y = t / CTA_X;
    uint32_t tid = weft_ctaid() * CTA_X + t % CTA_X, stride = weft_ntid() / DIMS;
    const uint32_t seed = 0;
    const uint32_t *base = table[y];
    for (uint32_t pos = tid; pos < N; pos += stride) {
        uint32_t result = 0, data = seed + pos;
        for (int bit = 0; bit < RESOLUTION; bit++, data >>= 1)
            if (data & 1) result ^= base[bit];
        quasi[y * N + pos] = (float)(result + 1) * INT_SCALE;
    }
    uint32_t distance = 0xffffffffu / (PATHS + 1);
    for (uint32_t pos = weft_tid(); pos < PATHS; pos += weft_ntid()) {
        float d = (float)((pos + 1) * distance) * (1.0f / 4294967296.0f);
        normal[pos] = moro_inv_cnd(d);
    }
}
