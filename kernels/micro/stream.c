/* stream: every thread sums 64 floats of a 256 KB array, reading it once in coalesced
 * 128-byte lines: a kernel bound by DRAM bandwidth when the bandwidth is low. */
#include "weft.h"

#define N 1024
#define K 64
WEFT_LAUNCH(N, 256);

float in[K * N] __attribute__((aligned(128)));
float out[N] __attribute__((aligned(128)));

void weft_setup(void) {
    uint32_t s = 99;
    for (int i = 0; i < K * N; i++) {
        s = s * 1664525u + 1013904223u;
        in[i] = (float)(s >> 16) / 1024.0f;
    }
}

void weft_kernel(void) {
    uint32_t i = weft_tid();
    float sum = 0.0f;
    for (int k = 0; k < K; k++) sum += in[k * N + i];
    out[i] = sum;
}
