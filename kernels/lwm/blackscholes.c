/* blackscholes: European call and put prices by the Black-Scholes formula (LWM Table 2's
 * blackscholes, after PARSEC's and the CUDA SDK's). Each of 1024 threads prices 16 of the
 * 16384 options, streaming its five inputs (spot, strike, rate, volatility, time) from
 * coalesced arrays. logf and expf are written here (range reduction and a polynomial),
 * square roots and divisions go to the SFU, and the cumulative normal distribution is
 * the Abramowitz-Stegun polynomial with its `if (d < 0)`. Inputs: uniform ranges from a
 * seeded LCG (PARSEC-like). */
#include "weft.h"

#define N 1024
#define PER 16
WEFT_LAUNCH(N, 256);

float spot[PER * N], strike[PER * N], rate[PER * N], vol[PER * N], years[PER * N];
float call[PER * N], put[PER * N];

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

/* e^x: x = k ln 2 + r, |r| <= ln 2 / 2, e^r by its Taylor polynomial, times 2^k. */
static float ex(float x) {
    if (x < -87.0f) return 0.0f;
    float kf = x * 1.44269504f;
    int k = (int)(kf < 0.0f ? kf - 0.5f : kf + 0.5f);
    float r = x - (float)k * 0.69314718f;
    float p = 1.0f + r * (1.0f + r * (0.5f + r * (0.16666667f + r * (0.041666667f + r * (0.0083333333f + r * 0.0013888889f)))));
    return p * from_bits((uint32_t)(k + 127) << 23);
}

static float cnd(float d) {
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f,
                a5 = 1.330274429f, rsqrt2pi = 0.39894228040143267794f;
    float k = 1.0f / (1.0f + 0.2316419f * __builtin_fabsf(d));
    float c = rsqrt2pi * ex(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    if (d > 0.0f) c = 1.0f - c;
    return c;
}

void weft_setup(void) {
    uint32_t s = 5150;
#define UNIFORM(lo, hi) (s = s * 1664525u + 1013904223u, (lo) + ((hi) - (lo)) * (float)(s >> 8) / 16777216.0f)
    for (int i = 0; i < PER * N; i++) {
        spot[i] = UNIFORM(5.0f, 30.0f);
        strike[i] = UNIFORM(1.0f, 100.0f);
        rate[i] = UNIFORM(0.01f, 0.05f);
        vol[i] = UNIFORM(0.05f, 0.65f);
        years[i] = UNIFORM(0.25f, 10.0f);
    }
}

void weft_kernel(void) {
    uint32_t tid = weft_tid();
    for (uint32_t k = 0; k < PER; k++) {
        uint32_t i = k * N + tid;
        float s = spot[i], x = strike[i], r = rate[i], v = vol[i], t = years[i];
        float sqrt_t = __builtin_sqrtf(t);
        float d1 = (ln(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
        float d2 = d1 - v * sqrt_t;
        float c1 = cnd(d1), c2 = cnd(d2);
        float discount = ex(-r * t);
        call[i] = s * c1 - x * discount * c2;
        put[i] = x * discount * (1.0f - c2) - s * (1.0f - c1);
    }
}
