/* fft: 256-point complex radix-2 FFTs, one per CTA (CAPRI Table 2's FFT, 91% SIMD
 * utilisation under WPDOM; the paper names no source, so this is the textbook
 * shared-memory FFT its description fits: regular divergence that compaction cannot
 * remove). A CTA of 256 threads loads its signal in bit-reversed order into a CTA-shared
 * tile (WEFT_SHARED), then runs the 8 decimation-in-time stages, each between two
 * barriers: thread t owns output t, which is the butterfly's difference when t has the
 * stage's `half` bit set and its sum otherwise (`if (t & half) x = a - w*b; else x =
 * a + w*b;`), so the branch splits every warp's lanes while half < 32 and is
 * warp-uniform above. The branch stays a branch, as the paper's divergence needs (an
 * empty volatile asm, a different one in each body, stops clang from folding the two
 * bodies into one add of a conditionally negated product). Twiddles come from a 128-entry table (cos and sin by
 * Taylor series in weft_setup), inputs from a seeded LCG. 240 CTAs: two waves on 30
 * cores of 1024 threads. weft_setup also runs the same FFT serially (the same
 * butterfly function, so the same rounding) into expected_out_re / expected_out_im. SIMD
 * utilisation under pdom: 96.6% (the paper: 91%, for a source it does not name): the
 * listing (`weft run kernels/capri/fft.c --listing`) shows the divergent bodies as 2
 * and 3 instructions (fadd, fadd / fsub, fsub, jal) beside the stage's 35, split in 5 of
 * the 8 stages; the paper's FFT must diverge over longer bodies. */
#include "weft.h"

/* The input generator's seed (`weft eval capri` runs two more with -DSEED=N). */
#ifndef SEED
#define SEED 2024u
#endif

#define POINTS 256
#define LOG_POINTS 8
#define CTA POINTS
#define FFTS 240
WEFT_LAUNCH(FFTS * CTA, CTA);

float in_re[FFTS * POINTS], in_im[FFTS * POINTS];
float out_re[FFTS * POINTS], out_im[FFTS * POINTS];
float expected_out_re[FFTS * POINTS], expected_out_im[FFTS * POINTS];
float tw_re[POINTS / 2], tw_im[POINTS / 2];
uint16_t reversed[POINTS];

WEFT_SHARED float tile_re[POINTS];
WEFT_SHARED float tile_im[POINTS];

/* The empty asm's operands: FP registers on the device; on the host (the native oracle
 * of weft_setup) any place, since "f" there means an x87 register, which clang 14
 * cannot allocate for two operands ("Cannot pop empty stack!"). */
#if defined(__riscv)
#define FFT_KEEP "+f"
#else
#define FFT_KEEP "+g"
#endif

/* Output i of stage `stage` (butterflies spanning half = 2^stage), from its input x. */
static inline void butterfly(const float *xr, const float *xi, uint32_t i, uint32_t stage,
                             float *re, float *im) {
    uint32_t half = 1u << stage, top = i & ~half, bottom = i | half;
    uint32_t k = (i & (half - 1)) << (LOG_POINTS - 1 - stage);
    float wr = tw_re[k], wi = tw_im[k];
    float ar = xr[top], ai = xi[top], br = xr[bottom], bi = xi[bottom];
    float tr = wr * br - wi * bi, ti = wr * bi + wi * br;
    float xr_, xi_;
    if (i & half) {
        xr_ = ar - tr;
        xi_ = ai - ti;
        __asm__ volatile("# difference" : FFT_KEEP(xr_), FFT_KEEP(xi_));
    } else {
        xr_ = ar + tr;
        xi_ = ai + ti;
        __asm__ volatile("# sum" : FFT_KEEP(xr_), FFT_KEEP(xi_));
    }
    *re = xr_;
    *im = xi_;
}

static float sine(float x) { /* Taylor series, |x| <= pi/2 */
    float x2 = x * x;
    return x * (1.0f - x2 / 6.0f * (1.0f - x2 / 20.0f * (1.0f - x2 / 42.0f * (1.0f - x2 / 72.0f * (1.0f - x2 / 110.0f)))));
}

static float scratch_re[2][POINTS], scratch_im[2][POINTS];

void weft_setup(void) {
    const float pi = 3.14159265f;
    /* w_k = e^{-2 pi i k / 512}; k < 128 by the series, the rest by symmetry. */
    for (uint32_t k = 0; k < POINTS / 4; k++) {
        float a = 2.0f * pi * (float)k / (float)POINTS;
        tw_re[k] = sine(pi / 2.0f - a);
        tw_im[k] = -sine(a);
        tw_re[k + POINTS / 4] = -tw_im[k];
        tw_im[k + POINTS / 4] = -tw_re[k];
    }
    for (uint32_t i = 0; i < POINTS; i++) {
        uint32_t r = 0;
        for (uint32_t b = 0; b < LOG_POINTS; b++) r |= ((i >> b) & 1) << (LOG_POINTS - 1 - b);
        reversed[i] = (uint16_t)r;
    }
    uint32_t s = SEED;
    for (uint32_t i = 0; i < FFTS * POINTS; i++) {
        s = s * 1664525u + 1013904223u;
        in_re[i] = (float)(int32_t)(s >> 16 & 0xffff) / 32768.0f - 1.0f;
        s = s * 1664525u + 1013904223u;
        in_im[i] = (float)(int32_t)(s >> 16 & 0xffff) / 32768.0f - 1.0f;
    }
    /* The serial reference: the same stages, from one buffer to the other. */
    for (uint32_t f = 0; f < FFTS; f++) {
        const float *sr = in_re + f * POINTS, *si = in_im + f * POINTS;
        for (uint32_t i = 0; i < POINTS; i++) {
            scratch_re[0][i] = sr[reversed[i]];
            scratch_im[0][i] = si[reversed[i]];
        }
        uint32_t from = 0;
        for (uint32_t stage = 0; stage < LOG_POINTS; stage++, from ^= 1)
            for (uint32_t i = 0; i < POINTS; i++)
                butterfly(scratch_re[from], scratch_im[from], i, stage, &scratch_re[from ^ 1][i],
                          &scratch_im[from ^ 1][i]);
        for (uint32_t i = 0; i < POINTS; i++) {
            expected_out_re[f * POINTS + i] = scratch_re[from][i];
            expected_out_im[f * POINTS + i] = scratch_im[from][i];
        }
    }
}

void weft_kernel(void) {
    uint32_t t = weft_tid() % CTA, base = weft_ctaid() * POINTS;
    tile_re[t] = in_re[base + reversed[t]];
    tile_im[t] = in_im[base + reversed[t]];
    for (uint32_t stage = 0; stage < LOG_POINTS; stage++) {
        float re, im;
        weft_barrier();
        butterfly(tile_re, tile_im, t, stage, &re, &im);
        weft_barrier();
        tile_re[t] = re;
        tile_im[t] = im;
    }
    weft_barrier();
    out_re[base + t] = tile_re[t];
    out_im[base + t] = tile_im[t];
}
