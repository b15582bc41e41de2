/* saxpy: y[i] = a * x[i] + y[i] over 1024 floats, inputs from a seeded generator. */
#include "weft.h"

#define N 1024
WEFT_LAUNCH(N, 256);

float x[N], y[N];
const float a = 2.5f;

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }

void weft_setup(void) {
    uint32_t s = 12345;
    for (int i = 0; i < N; i++) {
        x[i] = (float)(lcg(&s) >> 8) / 65536.0f - 128.0f;
        y[i] = (float)(lcg(&s) >> 9) / 4096.0f;
    }
}

void weft_kernel(void) {
    uint32_t i = weft_tid();
    y[i] = a * x[i] + y[i];
}
