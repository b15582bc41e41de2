/* sa: exact-match sequence alignment by suffix-array binary search, modelled on the SA
 * kernel of the Diverge-on-Miss paper (Table 3, §7.3; MUMmerGPU matches queries against a
 * suffix tree, here a suffix array stands in: same scattered, data-dependent reads).
 * Input (weft_setup, LCG seed 7): a random genome G of NG=1<<16 bases (bytes 0-3), padded by
 * MAXL bytes of 4 (a non-base, so no suffix runs off the end); its suffix array sa[] sorted
 * by an LSD radix sort on a 16-base (32-bit) prefix key, ties (rare) settled by an insertion
 * pass comparing whole suffixes. NQ=4096 queries sampled from G (so every query matches),
 * stored interleaved q[k*NQ+i] (coalesced per base). Query length by quarter of the threads:
 * 25/50/100/200 bp (the paper's 25..800 bp scaled down; one launch of 4 segments, length
 * uniform per warp). Thread i binary-searches sa[] for the first suffix >= its query,
 * comparing base by base (scattered sa[mid] and G[s+k]); writes pos[i] = sa[lo] (a genome
 * position where the query occurs) and steps[i] = bases compared. CTA 32 = one warp. */
#include "weft.h"

#define NG (1 << 16)
#define MAXL 200
#define NQ 4096
WEFT_LAUNCH(NQ, 32);

uint8_t G[NG + MAXL];
uint32_t sa[NG];
uint32_t tmp[NG];
uint32_t key[NG];
uint8_t q[MAXL * NQ];
uint32_t pos[NQ];
uint32_t steps[NQ];

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }

static inline uint32_t qlen(uint32_t i) { return 25u << (i / (NQ / 4)); }

static int suffix_less(uint32_t a, uint32_t b) {
    for (;;) {
        uint8_t x = G[a], y = G[b];
        if (x != y) return x < y;
        if (x == 4) return a > b; /* both in the pad: shorter suffix first */
        a++;
        b++;
    }
}

void weft_setup(void) {
    uint32_t s = 7;
    for (uint32_t i = 0; i < NG; i++) G[i] = (uint8_t)(lcg(&s) >> 30);
    for (uint32_t i = NG; i < NG + MAXL; i++) G[i] = 4;
    /* key = 16 bases, 2 bits each; the pad (4) clamps to 3 and ties are fixed below */
    for (uint32_t i = 0; i < NG; i++) {
        uint32_t k = 0;
        for (uint32_t j = 0; j < 16; j++) {
            uint32_t b = G[i + j];
            k = (k << 2) | (b > 3 ? 3 : b);
        }
        key[i] = k;
        sa[i] = i;
    }
    for (uint32_t sh = 0; sh < 32; sh += 8) {
        uint32_t cnt[257] = {0};
        for (uint32_t i = 0; i < NG; i++) cnt[((key[sa[i]] >> sh) & 255) + 1]++;
        for (uint32_t d = 0; d < 256; d++) cnt[d + 1] += cnt[d];
        for (uint32_t i = 0; i < NG; i++) tmp[cnt[(key[sa[i]] >> sh) & 255]++] = sa[i];
        for (uint32_t i = 0; i < NG; i++) sa[i] = tmp[i];
    }
    /* insertion sort fixes runs of equal keys (already in order otherwise) */
    for (uint32_t i = 1; i < NG; i++) {
        uint32_t v = sa[i], j = i;
        while (j > 0 && key[sa[j - 1]] == key[v] && suffix_less(v, sa[j - 1])) {
            sa[j] = sa[j - 1];
            j--;
        }
        sa[j] = v;
    }
    for (uint32_t i = 0; i < NQ; i++) {
        uint32_t len = qlen(i), st = (lcg(&s) >> 8) % (NG - len);
        for (uint32_t k = 0; k < len; k++) q[k * NQ + i] = G[st + k];
    }
}

void weft_kernel(void) {
    uint32_t i = weft_tid(), len = qlen(i), lo = 0, hi = NG, n = 0;
    while (lo < hi) {
        uint32_t mid = (lo + hi) >> 1, s = sa[mid], k = 0;
        int c = 0;
        while (k < len) {
            uint8_t x = q[k * NQ + i], y = G[s + k];
            if (x != y) {
                c = x < y ? -1 : 1;
                break;
            }
            k++;
        }
        n += k;
        if (c <= 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    pos[i] = sa[lo];
    steps[i] = n;
}
