/* rtl_saxpy: integer saxpy, y[i] = a * x[i] + y[i] on 256 threads, with the scale a a
 * global that weft_setup draws (so every thread loads it from one address). Written
 * for the RTL VGIW core (docs/core.md §7): one block, 32-bit words, no live value. */
#include "weft.h"

#define N 256
WEFT_LAUNCH(N, 64);

uint32_t a;
uint32_t x[N], y[N];

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }

void weft_setup(void) {
    uint32_t s = 2024;
    a = 3 + (lcg(&s) >> 28);
    for (int i = 0; i < N; i++) {
        x[i] = lcg(&s);
        y[i] = lcg(&s);
    }
}

void weft_kernel(void) {
    uint32_t i = weft_tid();
    y[i] = a * x[i] + y[i];
}
