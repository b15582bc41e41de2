/* floatops: the F-extension operations on seeded data: fused multiply-add, division,
 * square root, min/max, sign injection, comparisons and conversions both ways. */
#include "weft.h"

#define N 512
WEFT_LAUNCH(N, 64);

float p[N], q[N];
float out[N][8];
int32_t ints[N][4];

static uint32_t lcg(uint32_t *s) { return *s = *s * 22695477u + 1u; }

void weft_setup(void) {
    uint32_t s = 99;
    for (int i = 0; i < N; i++) {
        p[i] = ((float)(lcg(&s) >> 8) - 8388608.0f) / 1024.0f;
        q[i] = (float)(lcg(&s) >> 12) / 256.0f + 0.125f;
    }
}

void weft_kernel(void) {
    uint32_t i = weft_tid();
    float x = p[i], y = q[i];
    float *o = out[i];
    o[0] = __builtin_fmaf(x, y, -x);
    o[1] = x / y;
    o[2] = __builtin_sqrtf(y);
    o[3] = __builtin_fminf(x, y) + __builtin_fmaxf(x, -y);
    o[4] = __builtin_copysignf(y, x) - __builtin_fabsf(x);
    o[5] = (float)(int32_t)(x * 3.0f) + (float)(uint32_t)(y * 7.0f);
    o[6] = x * y - (x + y) * 0.5f;
    o[7] = (x < y ? 1.0f : 0.0f) + (x <= -y ? 2.0f : 0.0f) + (x == x ? 4.0f : 0.0f);
    ints[i][0] = (int32_t)(x * 1000.0f);
    ints[i][1] = (int32_t)(uint32_t)(y * 100.0f);
    ints[i][2] = (int32_t)(y * (float)i);
    ints[i][3] = (int32_t)__builtin_floorf(x);
}
