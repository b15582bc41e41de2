/* tpacf: two-point angular correlation function, Parboil's gen_hists kernel (CAPRI Table 2's
 * TPACF). Each CTA of 256 (Parboil's BLOCK_SIZE) histograms the angular distances of one
 * pair of point sets: CTA 0 the data with itself (DD), CTAs 1..NUM_SETS each random set with
 * itself (RR), the rest the data against each random set (DR). A thread takes one point of
 * the second set per tile of 256 (`if (tid + j < NUM_ELEMENTS)`) and loops over the first
 * set (to the tile's end when a set meets itself): a dot product of unit vectors, the binary
 * search of the 20 bin edges (`while (max > min + 1)`, 4 or 5 trips, its `if` a select as
 * nvcc predicates it; tpacf_branch.c keeps the branch), and the guarded count (`distance`
 * in range, each self pair once);
 * after the loop a barrier-separated tree reduction sums the per-thread histograms. Counts
 * go to shared memory (WEFT_SHARED) as the original's; Parboil adds them with atomicAdd
 * into 16 histograms per warp (2 threads each), RV32IMF has no atomics, so HISTS_PER_WARP is
 * 32: every thread owns its histogram and the add is a plain one.
 * Inputs: bin edges as Parboil's initBinB (1 to 10 000 arcmin, 5 bins a decade), cos and
 * powers of ten written out in float; points on a survey cap of 64 degrees radius (28% of
 * the sky, SDSS-like), the randoms uniform on it, the data in clumps of 8 within about
 * half a degree of a clump centre uniform on it (galaxies cluster). NUM_SETS = 29 random
 * sets of 256 points (one tile): 59 CTAs, 2.0 waves of 30 cores of 1 CTA (shared memory
 * binds: 20 KB of histograms a CTA, as HISTS_PER_WARP is 32), where the study's first
 * input had 2 sets (5 CTAs, 0.2 waves: tpacf_small.c); more sets of the same size, so
 * every CTA's work is the same (WPDOM's tail 1.8%, 412 M thread instructions). weft_setup
 * counts every pair serially (a linear scan of the bins) into expected_histograms. */
#include "weft.h"

/* The input generator's seed (`weft eval capri` runs two more with -DSEED=N). */
#ifndef SEED
#define SEED 1999u
#endif

#define BLOCK_SIZE 256
#define WARP_SIZE 32
#define NUM_WARPS (BLOCK_SIZE / WARP_SIZE)
#define HISTS_PER_WARP 32
#define NUM_HISTOGRAMS (NUM_WARPS * HISTS_PER_WARP)
#define NUM_BINS 20
#ifndef NUM_SETS /* the study's first input sets it */
#define NUM_SETS 29
#endif
#define NUM_ELEMENTS 256
#define CTAS (NUM_SETS * 2 + 1)
WEFT_LAUNCH(CTAS * BLOCK_SIZE, BLOCK_SIZE);

float all_x_data[(NUM_SETS + 1) * NUM_ELEMENTS], all_y_data[(NUM_SETS + 1) * NUM_ELEMENTS],
    all_z_data[(NUM_SETS + 1) * NUM_ELEMENTS];
float binb[NUM_BINS + 1];
uint32_t histograms[CTAS * NUM_BINS], expected_histograms[CTAS * NUM_BINS];
WEFT_SHARED uint32_t warp_hists[NUM_BINS][NUM_HISTOGRAMS];

#define PI 3.14159265f

/* sin x for |x| <= pi/2, Taylor to x^13. */
static float sine(float x) {
    float x2 = x * x;
    return x * (1.0f - x2 / 6.0f * (1.0f - x2 / 20.0f * (1.0f - x2 / 42.0f * (1.0f - x2 / 72.0f *
                (1.0f - x2 / 110.0f * (1.0f - x2 / 156.0f))))));
}
/* cos x for 0 <= x <= pi, as 1 - 2 sin^2(x/2): exact for the small angles. */
static float cosine(float x) {
    float s = sine(0.5f * x);
    return 1.0f - 2.0f * s * s;
}

static uint32_t rng = SEED;
static float uniform(void) {
    rng = rng * 1664525u + 1013904223u;
    return (float)(rng >> 8) / 16777216.0f;
}

/* The unit vector at angle theta (cos ct, sin st) from unit vector c, at a random azimuth. */
static void offset(float cx, float cy, float cz, float ct, float st, float *x, float *y, float *z) {
    /* An orthonormal frame (u, v) around c (c is never a pole here: the cap's pole is z). */
    float n = __builtin_sqrtf(cx * cx + cy * cy);
    float ux = -cy / n, uy = cx / n, uz = 0.0f;
    float vx = cy * uz - cz * uy, vy = cz * ux - cx * uz, vz = cx * uy - cy * ux;
    float cp = cosine(PI * uniform()), sp = __builtin_sqrtf(1.0f - cp * cp);
    if (uniform() < 0.5f) sp = -sp;
    *x = ct * cx + st * (cp * ux + sp * vx);
    *y = ct * cy + st * (cp * uy + sp * vy);
    *z = ct * cz + st * (cp * uz + sp * vz);
}

/* A point uniform on the cap of cos(radius) = cos_r around the pole z. */
static void on_cap(float cos_r, float *x, float *y, float *z) {
    float ct = 1.0f - uniform() * (1.0f - cos_r), st = __builtin_sqrtf(1.0f - ct * ct);
    float cp = cosine(PI * uniform()), sp = __builtin_sqrtf(1.0f - cp * cp);
    if (uniform() < 0.5f) sp = -sp;
    *x = st * cp;
    *y = st * sp;
    *z = ct;
}

static float dot(float x0, float y0, float z0, float x1, float y1, float z1) {
    return x0 * x1 + y0 * y1 + z0 * z1;
}

void weft_setup(void) {
    /* Parboil's initBinB: cos(10^(log10(min_arcmin) + k / bins_per_dec) arcmin). */
    float arcmin = 1.0f;
    for (int k = 0; k <= NUM_BINS; k++) {
        binb[k] = cosine(arcmin / 60.0f * PI / 180.0f);
        arcmin *= 1.58489319f; /* 10^(1/5) */
    }
    const float cos_cap = 0.44f; /* 64 degrees */
    for (int i = 0; i < (NUM_SETS + 1) * NUM_ELEMENTS; i++) {
        float x, y, z;
        on_cap(cos_cap, &x, &y, &z);
        if (i < NUM_ELEMENTS && i % 8 != 0) {
            /* Galaxies cluster: clumps of 8 within about half a degree of their first. */
            int c = i & ~7;
            float t = 0.01f * uniform();
            offset(all_x_data[c], all_y_data[c], all_z_data[c], 1.0f - 0.5f * t * t, t, &x, &y, &z);
        }
        all_x_data[i] = x;
        all_y_data[i] = y;
        all_z_data[i] = z;
    }
    /* The serial reference: every pair once, its bin by a linear scan from the widest. */
    for (int bx = 0; bx < CTAS; bx++) {
        int self = bx < NUM_SETS + 1, d = self ? bx : 0, r = self ? bx : bx - NUM_SETS;
        for (int a = 0; a < NUM_ELEMENTS; a++)
            for (int b = self ? a + 1 : 0; b < NUM_ELEMENTS; b++) {
                int i = d * NUM_ELEMENTS + a, j = r * NUM_ELEMENTS + b;
                float dist = dot(all_x_data[i], all_y_data[i], all_z_data[i], all_x_data[j],
                                 all_y_data[j], all_z_data[j]);
                if (dist < binb[NUM_BINS]) continue;
                for (int k = NUM_BINS - 1; k >= 0; k--)
                    if (dist < binb[k]) {
                        expected_histograms[bx * NUM_BINS + k]++;
                        break;
                    }
            }
    }
}

void weft_kernel(void) {
    uint32_t bx = weft_ctaid(), tid = weft_tid() % BLOCK_SIZE;
    int do_self = bx < NUM_SETS + 1;
    const float *data_x, *data_y, *data_z, *random_x, *random_y, *random_z;

    for (uint32_t w = 0; w < NUM_BINS * NUM_HISTOGRAMS; w += BLOCK_SIZE)
        if (w + tid < NUM_BINS * NUM_HISTOGRAMS)
            warp_hists[(w + tid) / NUM_HISTOGRAMS][(w + tid) % NUM_HISTOGRAMS] = 0;

    if (!do_self) {
        data_x = all_x_data;
        data_y = all_y_data;
        data_z = all_z_data;
        random_x = all_x_data + NUM_ELEMENTS * (bx - NUM_SETS);
        random_y = all_y_data + NUM_ELEMENTS * (bx - NUM_SETS);
        random_z = all_z_data + NUM_ELEMENTS * (bx - NUM_SETS);
    } else {
        random_x = all_x_data + NUM_ELEMENTS * bx;
        random_y = all_y_data + NUM_ELEMENTS * bx;
        random_z = all_z_data + NUM_ELEMENTS * bx;
        data_x = random_x;
        data_y = random_y;
        data_z = random_z;
    }

    float random_x_s = 0.0f, random_y_s = 0.0f, random_z_s = 0.0f;
    for (uint32_t j = 0; j < NUM_ELEMENTS; j += BLOCK_SIZE) {
        if (tid + j < NUM_ELEMENTS) {
            random_x_s = random_x[tid + j];
            random_y_s = random_y[tid + j];
            random_z_s = random_z[tid + j];
        }
        for (uint32_t k = 0; k < NUM_ELEMENTS && (do_self ? k < j + BLOCK_SIZE : 1); k++) {
            float distance = dot(data_x[k], data_y[k], data_z[k], random_x_s, random_y_s, random_z_s);
            uint32_t min = 0, max = NUM_BINS;
            while (max > min + 1) {
                uint32_t k2 = (min + max) / 2;
#ifdef TPACF_SEARCH_BRANCH
                /* tpacf_branch.c: as written; RV32 has no conditional move, so a branch */
                if (distance >= binb[k2])
                    max = k2;
                else
                    min = k2;
#else
                /* if (distance >= binb[k2]) max = k2; else min = k2; as nvcc predicates it */
                uint32_t m = -(uint32_t)(distance >= binb[k2]);
                __asm__ volatile("" : "+r"(m));
                max = (k2 & m) | (max & ~m);
                min = (min & m) | (k2 & ~m);
#endif
            }
            uint32_t bin_index = max - 1;
            uint32_t warpnum = tid / (WARP_SIZE / HISTS_PER_WARP);
            if ((distance < binb[min]) && (distance >= binb[max]) && (!do_self || (tid + j > k)) &&
                (tid + j < NUM_ELEMENTS))
                warp_hists[bin_index][warpnum] += 1;
        }
    }

    /* Sum the block's histograms: a tree over the 256 columns, two bins at a time. */
    uint32_t warp_index = tid & ((NUM_HISTOGRAMS >> 1) - 1);
    uint32_t bin_index = tid / (NUM_HISTOGRAMS >> 1);
    for (uint32_t off = NUM_HISTOGRAMS >> 1; off > 0; off >>= 1)
        for (uint32_t bin_base = 0; bin_base < NUM_BINS; bin_base += BLOCK_SIZE / (NUM_HISTOGRAMS >> 1)) {
            weft_barrier();
            if (warp_index < off && bin_base + bin_index < NUM_BINS) {
                uint32_t sum = warp_hists[bin_base + bin_index][warp_index] +
                               warp_hists[bin_base + bin_index][warp_index + off];
                warp_hists[bin_base + bin_index][warp_index] = sum;
            }
        }
    weft_barrier();
    uint32_t *hist_base = histograms + NUM_BINS * bx;
    if (tid < NUM_BINS) hist_base[tid] = warp_hists[tid][0];
}
