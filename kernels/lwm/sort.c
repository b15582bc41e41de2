/* sort: bucket sort of random integers, modelled on the "sort" benchmark of the LWM
 * paper (Table 2). Each of 1024 threads reads its chunk of CHUNK keys (coalesced:
 * element k*1024+tid), finds each key's bucket with a 16-way compare ladder against
 * the splitters (if x<p1 ... else if x<p2 ...), appends it to private bucket arrays,
 * insertion-sorts every bucket and writes its sorted chunk (element j of the chunk at
 * j*1024+tid) and its bucket counts. Input: 24-bit keys from an LCG (seed 4242),
 * splitters at the 16-quantiles of the key range, made in weft_setup.
 * Size: 1024 threads x 48 keys (49152 keys). */
#include "weft.h"

#define N 1024
#define CHUNK 48
#define NB 16
#define RANGE (1u << 24)
WEFT_LAUNCH(N, 256);

uint32_t keys[CHUNK * N];
uint32_t splitter[NB - 1];
uint32_t sorted[CHUNK * N];
uint32_t bucket_count[NB * N];

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }

void weft_setup(void) {
    uint32_t s = 4242;
    for (int i = 0; i < CHUNK * N; i++) keys[i] = lcg(&s) >> 8;
    for (int b = 1; b < NB; b++) splitter[b - 1] = b * (RANGE / NB);
}

void weft_kernel(void) {
    uint32_t i = weft_tid();
    uint32_t bucket[NB][CHUNK]; /* private bucket arrays, 3 KB */
    uint32_t cnt[NB];
    for (int b = 0; b < NB; b++) cnt[b] = 0;
    uint32_t p1 = splitter[0], p2 = splitter[1], p3 = splitter[2], p4 = splitter[3],
             p5 = splitter[4], p6 = splitter[5], p7 = splitter[6], p8 = splitter[7],
             p9 = splitter[8], p10 = splitter[9], p11 = splitter[10], p12 = splitter[11],
             p13 = splitter[12], p14 = splitter[13], p15 = splitter[14];

    for (int k = 0; k < CHUNK; k++) {
        uint32_t x = keys[k * N + i];
        uint32_t b;
        if (x < p1) b = 0;
        else if (x < p2) b = 1;
        else if (x < p3) b = 2;
        else if (x < p4) b = 3;
        else if (x < p5) b = 4;
        else if (x < p6) b = 5;
        else if (x < p7) b = 6;
        else if (x < p8) b = 7;
        else if (x < p9) b = 8;
        else if (x < p10) b = 9;
        else if (x < p11) b = 10;
        else if (x < p12) b = 11;
        else if (x < p13) b = 12;
        else if (x < p14) b = 13;
        else if (x < p15) b = 14;
        else b = 15;
        bucket[b][cnt[b]++] = x;
    }

    uint32_t out = 0;
    for (int b = 0; b < NB; b++) {
        uint32_t n = cnt[b];
        uint32_t *a = bucket[b];
        for (uint32_t j = 1; j < n; j++) { /* insertion sort */
            uint32_t v = a[j];
            int32_t m = (int32_t)j - 1;
            while (m >= 0 && a[m] > v) {
                a[m + 1] = a[m];
                m--;
            }
            a[m + 1] = v;
        }
        for (uint32_t j = 0; j < n; j++) sorted[(out + j) * N + i] = a[j];
        out += n;
        bucket_count[b * N + i] = n;
    }
}
