/* nl_2k: kernels/dom/nl.c at 2048 particles (8^3 fcc cells), whose positions (24 KB) fit
 * the 32 KB L1: the study's first input, kept to measure what the larger input changes.
 * nl: neighbour-list build by spatial bins, the "NL" kernel of the Diverge-on-Miss paper
 * (§7.3, Table 3: HOOMD 0.8's neighbour list, 27 neighbour bins, padded cutoff, one thread
 * per particle). N = 2048 particles (scaled from the paper's 64000 to keep the run at ~32 M
 * thread instructions) at packing fraction 0.2 (number density rho = 0.2 * 6 / pi = 0.382,
 * box side L = (N / rho)^(1/3) = 17.50, periodic).
 * Input (weft_setup, LCG seed 12345): an fcc lattice of 8^3 unit cells (4 * 8^3 = 2048
 * sites, lattice constant L / 8), each coordinate jittered by a uniform +-0.15 lattice
 * constant and wrapped into [0, L); then sorted by bin (counting sort) into bin-major
 * cx/cy/cz with cstart[] and pbin[] (HOOMD's bin layout), so thread i owns sorted particle
 * i and a warp's 32 particles share most of their 27 bins (12..23 particles per bin).
 * Choices [not in the paper's text]: r_cut 3.0 + buffer 0.4 = list radius 3.4 (53..70
 * neighbours, mean 62); 5 bins per side (side 3.50 >= 3.4, so 27 bins cover the sphere;
 * 5 >= 3, so the 27 periodic bins are distinct); minimum image by compare-and-shift (no
 * rintf, so the host and RV32F results agree bit for bit); MAXN = 128 slots per particle:
 * a neighbour past the last slot is counted but not stored, so nn[i] may exceed MAXN (it
 * never does with this input). kernels/dom/lj.c builds the same list in its setup.
 * Kernel: thread i loops over its 27 bins and their particles (occupancy varies, so the
 * loops diverge): 3 loads, minimum-image r^2, if (r2 < rl2 && j != i) nl[n++ * N + i] = j
 * (interleaved, so a warp's stores of slot n are coalesced); then nn[i] = n.
 * Outputs: nl[MAXN * N], nn[N]. */
#include "weft.h"

#define N 2048
#define FCC 8          /* fcc unit cells per side: 4 * FCC^3 = N */
#define NB 5           /* bins per side */
#define NC (NB * NB * NB)
#define MAXN 128
#define L 17.5025f     /* (2048 / 0.38197)^(1/3) */
#define RL 3.4f        /* r_cut 3.0 + buffer 0.4 */
WEFT_LAUNCH(N, 32);

float cx[N], cy[N], cz[N];   /* positions, sorted by bin */
uint32_t cstart[NC + 1];     /* bin b holds sorted particles cstart[b] .. cstart[b+1]-1 */
uint32_t pbin[N];            /* bin of sorted particle i */
uint32_t nl[MAXN * N];       /* slot k of particle i at k * N + i */
uint32_t nn[N];

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }
static float unit(uint32_t *s) { return (float)(lcg(s) >> 8) * (1.0f / 16777216.0f); }

static float wrap(float v) {
    if (v < 0.0f) v += L;
    if (v >= L) v -= L;
    return v;
}

static uint32_t bin1(float v) {
    uint32_t b = (uint32_t)(v * ((float)NB / L));
    return b < NB ? b : NB - 1;
}

/* Scratch for the sort; the kernel does not read it. */
float px[N], py[N], pz[N];
uint32_t count[NC];

void weft_setup(void) {
    uint32_t s = 12345;
    const float a = L / FCC;
    /* Sites of an fcc unit cell, in half lattice constants. */
    static const uint8_t site[4][3] = {{0, 0, 0}, {1, 1, 0}, {1, 0, 1}, {0, 1, 1}};
    for (int i = 0; i < N; i++) {
        int c = i / 4, ix = c % FCC, iy = (c / FCC) % FCC, iz = c / (FCC * FCC);
        const uint8_t *o = site[i % 4];
        px[i] = wrap((ix + 0.5f * o[0] + 0.25f) * a + (unit(&s) - 0.5f) * 0.3f * a);
        py[i] = wrap((iy + 0.5f * o[1] + 0.25f) * a + (unit(&s) - 0.5f) * 0.3f * a);
        pz[i] = wrap((iz + 0.5f * o[2] + 0.25f) * a + (unit(&s) - 0.5f) * 0.3f * a);
    }
    for (int b = 0; b < NC; b++) count[b] = 0;
    for (int i = 0; i < N; i++) count[(bin1(pz[i]) * NB + bin1(py[i])) * NB + bin1(px[i])]++;
    cstart[0] = 0;
    for (int b = 0; b < NC; b++) {
        cstart[b + 1] = cstart[b] + count[b];
        count[b] = cstart[b];
    }
    for (int i = 0; i < N; i++) {
        uint32_t b = (bin1(pz[i]) * NB + bin1(py[i])) * NB + bin1(px[i]);
        uint32_t d = count[b]++;
        cx[d] = px[i];
        cy[d] = py[i];
        cz[d] = pz[i];
        pbin[d] = b;
    }
}

/* Minimum image of a difference of two coordinates in [0, L). */
static inline float image(float d) {
    if (d > 0.5f * L) d -= L;
    else if (d < -0.5f * L) d += L;
    return d;
}

void weft_kernel(void) {
    uint32_t i = weft_tid();
    float xi = cx[i], yi = cy[i], zi = cz[i];
    uint32_t b = pbin[i], bx = b % NB, by = (b / NB) % NB, bz = b / (NB * NB);
    uint32_t n = 0;
    for (uint32_t oz = 0; oz < 3; oz++) {
        uint32_t z = (bz + oz + NB - 1) % NB;
        for (uint32_t oy = 0; oy < 3; oy++) {
            uint32_t y = (by + oy + NB - 1) % NB;
            for (uint32_t ox = 0; ox < 3; ox++) {
                uint32_t c = (z * NB + y) * NB + (bx + ox + NB - 1) % NB;
                for (uint32_t j = cstart[c], e = cstart[c + 1]; j < e; j++) {
                    float dx = image(xi - cx[j]), dy = image(yi - cy[j]), dz = image(zi - cz[j]);
                    float r2 = dx * dx + dy * dy + dz * dz;
                    if (r2 < RL * RL && j != i) {
                        if (n < MAXN) nl[n * N + i] = j;
                        n++;
                    }
                }
            }
        }
    }
    nn[i] = n;
}
