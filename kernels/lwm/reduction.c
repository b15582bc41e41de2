/* reduction: the parallel sum of a large vector of integers (LWM Table 2's reduction,
 * after the CUDA SDK's). 1024 threads in one CTA each sum 256 elements of a 1 MB vector
 * with grid-stride (coalesced) loads, then a tree in global memory halves the partial
 * sums with weft_barrier between levels and `if (tid < s)`, warp-aligned until s < 32.
 * Inputs from a seeded LCG; weft_setup also sums the vector serially into
 * expected_total, which the tests compare with total. */
#include "weft.h"

#define N 1024
#define PER 256
WEFT_LAUNCH(N, N);

uint32_t vec[N * PER] __attribute__((aligned(128)));
uint32_t partial[N] __attribute__((aligned(128)));
uint32_t total, expected_total;

void weft_setup(void) {
    uint32_t s = 31337, sum = 0;
    for (int i = 0; i < N * PER; i++) {
        s = s * 1664525u + 1013904223u;
        vec[i] = s >> 12;
        sum += vec[i];
    }
    expected_total = sum;
}

void weft_kernel(void) {
    uint32_t tid = weft_tid(), sum = 0;
    for (uint32_t k = tid; k < N * PER; k += N) sum += vec[k];
    partial[tid] = sum;
    for (uint32_t s = N / 2; s > 0; s >>= 1) {
        weft_barrier();
        if (tid < s) partial[tid] += partial[tid + s];
    }
    if (tid == 0) total = partial[0];
}
