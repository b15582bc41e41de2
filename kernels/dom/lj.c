/* lj: Lennard-Jones forces over a neighbour list, the "LJ" kernel of the Diverge-on-Miss
 * paper (§7.3, Table 3: HOOMD 0.8's LJ force compute, a loop over the neighbour list, one
 * thread per particle; packing 0.2). One force evaluation (the paper's 600 time steps are
 * not modelled); N = 2048 particles (scaled from the paper's 64000, the same particles as
 * kernels/dom/nl.c).
 * Input (weft_setup, LCG seed 12345, as nl.c): an fcc lattice of 8^3 unit cells in a
 * periodic box of side L = 17.50 (number density 0.382 = packing 0.2), each coordinate
 * jittered by a uniform +-0.15 lattice constant, sorted by bin (5^3 bins, counting sort);
 * then the neighbour list, built serially in setup exactly as nl.c's kernel builds it
 * (27 bins, list radius r_cut 3.0 + buffer 0.4 = 3.4 [buffer not in the paper's text],
 * 53..70 neighbours, mean 62), interleaved: slot k of particle i at nl[k * PITCH + i]
 * (HOOMD's layout, so a warp's loads of slot k are coalesced; the positions they name are
 * not). PITCH = N + 8 words: slot k + 1 of a warp's lists starts one 32-byte line (one L1
 * set) after slot k, where a pitch of N words (8 KB, one way of the L1) would put every
 * slot in the same 4 sets (kernels/dom/lj_aliased.c). Positions are one 16-byte record per
 * particle (x, y, z, unused), as HOOMD's float4: a neighbour's coordinates share a line.
 * Kernel: thread i loops k < nn[i] (counts differ, so the loop exit diverges): j = nl[...],
 * gathers pos[j].x, .y, .z (3 loads of one record, where HOOMD fetches one float4),
 * minimum image by compare-and-shift (no rintf, so host and RV32F agree bit for bit), and
 * if r2 < rc2 (3.0^2; ~70% of the list): r2i = 1/r2, r6i = r2i^3,
 * ff = r2i * r6i * (48 r6i - 24), force += d * ff, energy += 4 r6i (r6i - 1) (not shifted),
 * virial += ff * r2. Sums are per particle over all its neighbours (each pair is counted
 * by both of its particles; halve for totals). Outputs: fx, fy, fz, pe, vir [N]. */
#include "weft.h"

#define N 2048
#define FCC 8          /* fcc unit cells per side: 4 * FCC^3 = N */
#define NB 5           /* bins per side */
#define NC (NB * NB * NB)
#define MAXN 128
#define L 17.5025f     /* (2048 / 0.38197)^(1/3) */
#define RL 3.4f        /* list radius: r_cut 3.0 + buffer 0.4 */
#define RC 3.0f
#define PITCH (N + 8)  /* words between slots: not a multiple of the L1's 8 KB way */
WEFT_LAUNCH(N, 32);

typedef struct {
    float x, y, z, w;
} record;
record pos[N] __attribute__((aligned(16))); /* positions, sorted by bin; w unused */
uint32_t nl[MAXN * PITCH];   /* slot k of particle i at k * PITCH + i */
uint32_t nn[N];
float fx[N], fy[N], fz[N], pe[N], vir[N];

/* Setup scratch; the kernel does not read it. */
float px[N], py[N], pz[N];
uint32_t cstart[NC + 1], count[NC], pbin[N];

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

/* Minimum image of a difference of two coordinates in [0, L). */
static inline float image(float d) {
    if (d > 0.5f * L) d -= L;
    else if (d < -0.5f * L) d += L;
    return d;
}

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
        pos[d].x = px[i];
        pos[d].y = py[i];
        pos[d].z = pz[i];
        pos[d].w = 0.0f;
        pbin[d] = b;
    }
    /* The neighbour list, as kernels/dom/nl.c builds it (same bins, order and radius). */
    for (uint32_t i = 0; i < N; i++) {
        uint32_t b = pbin[i], bx = b % NB, by = (b / NB) % NB, bz = b / (NB * NB), n = 0;
        for (uint32_t oz = 0; oz < 3; oz++)
            for (uint32_t oy = 0; oy < 3; oy++)
                for (uint32_t ox = 0; ox < 3; ox++) {
                    uint32_t c = (((bz + oz + NB - 1) % NB) * NB + (by + oy + NB - 1) % NB) * NB +
                                 (bx + ox + NB - 1) % NB;
                    for (uint32_t j = cstart[c]; j < cstart[c + 1]; j++) {
                        float dx = image(pos[i].x - pos[j].x), dy = image(pos[i].y - pos[j].y),
                              dz = image(pos[i].z - pos[j].z);
                        float r2 = dx * dx + dy * dy + dz * dz;
                        if (r2 < RL * RL && j != i && n < MAXN) nl[n++ * PITCH + i] = j;
                    }
                }
        nn[i] = n;
    }
}

void weft_kernel(void) {
    uint32_t i = weft_tid();
    float xi = pos[i].x, yi = pos[i].y, zi = pos[i].z;
    float ax = 0.0f, ay = 0.0f, az = 0.0f, e = 0.0f, w = 0.0f;
    for (uint32_t k = 0, n = nn[i]; k < n; k++) {
        uint32_t j = nl[k * PITCH + i];
        float dx = image(xi - pos[j].x), dy = image(yi - pos[j].y), dz = image(zi - pos[j].z);
        float r2 = dx * dx + dy * dy + dz * dz;
        if (r2 < RC * RC) {
            float r2i = 1.0f / r2;
            float r6i = r2i * r2i * r2i;
            float ff = r2i * r6i * (48.0f * r6i - 24.0f);
            ax += dx * ff;
            ay += dy * ff;
            az += dz * ff;
            e += 4.0f * r6i * (r6i - 1.0f);
            w += ff * r2;
        }
    }
    fx[i] = ax;
    fy[i] = ay;
    fz[i] = az;
    pe[i] = e;
    vir[i] = w;
}
