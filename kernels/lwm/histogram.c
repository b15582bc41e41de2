/* histogram: the histogram of the characters of a large ASCII text (LWM Table 2's
 * histogram, after the CUDA SDK's). The 1 MB text is generated from a seed with English
 * letter frequencies (spaces, lower- and upper-case letters, digits, punctuation). Each
 * of 1024 threads reads its 1 KB as words in coalesced order (word k*1024 + tid), counts
 * its characters into a private histogram of 128 bins (its own stack, one bank per lane
 * in the paper's private memory) and writes the bins out, bin-major. */
#include "weft.h"

#define N 1024
#define WORDS 256 /* per thread */
#define BINS 128
WEFT_LAUNCH(N, 256);

uint32_t text[N * WORDS] __attribute__((aligned(128)));
uint32_t hist[BINS][N] __attribute__((aligned(128)));

/* English letter frequencies in 1/1000 (a..z). */
static const uint16_t freq[26] = {82, 15, 28, 43, 127, 22, 20, 61, 70, 2, 8, 40, 24,
                                  67, 75, 19, 1, 60, 63, 91, 28, 10, 24, 2, 20, 1};

static uint32_t lcg(uint32_t *s) { return *s = *s * 1103515245u + 12345u; }

static uint8_t character(uint32_t r) {
    uint32_t kind = r % 100;
    r /= 100;
    if (kind < 17) return ' ';
    if (kind < 19) return (uint8_t)".,;:!?'-"[r % 8];
    if (kind < 21) return (uint8_t)('0' + r % 10);
    uint32_t pick = r % 1000, acc = 0;
    for (int c = 0; c < 26; c++) {
        acc += freq[c];
        if (pick < acc) return (uint8_t)((kind < 24 ? 'A' : 'a') + c);
    }
    return 'e';
}

/* 4096 characters drawn once; the text picks among them. */
static uint8_t pool[4096];

void weft_setup(void) {
    uint32_t s = 2718;
    for (int i = 0; i < 4096; i++) pool[i] = character(lcg(&s) >> 4);
    for (int i = 0; i < N * WORDS; i++) {
        uint32_t w = 0;
        for (int b = 0; b < 4; b++) w |= (uint32_t)pool[(lcg(&s) >> 8) % 4096] << (8 * b);
        text[i] = w;
    }
}

void weft_kernel(void) {
    uint32_t tid = weft_tid();
    uint32_t bins[BINS];
    for (int b = 0; b < BINS; b++) bins[b] = 0;
    for (uint32_t k = 0; k < WORDS; k++) {
        uint32_t w = text[k * N + tid];
        bins[w & 127]++;
        bins[(w >> 8) & 127]++;
        bins[(w >> 16) & 127]++;
        bins[w >> 24 & 127]++;
    }
    for (int b = 0; b < BINS; b++) hist[b][tid] = bins[b];
}
