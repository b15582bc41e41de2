/* intops: the integer and M-extension operations on seeded data, one result row per
 * thread: products (low and high words), quotients and remainders of both signs, shifts,
 * comparisons and byte/halfword memory accesses. */
#include "weft.h"

#define N 512
WEFT_LAUNCH(N, 128);

int32_t a[N], b[N];
uint32_t out[N][10];
int8_t bytes[N], bytes_out[N];
int16_t halves[N], halves_out[N];

static uint32_t lcg(uint32_t *s) { return *s = *s * 1103515245u + 12345u; }

void weft_setup(void) {
    uint32_t s = 7;
    for (int i = 0; i < N; i++) {
        a[i] = (int32_t)lcg(&s);
        b[i] = (int32_t)(lcg(&s) >> (lcg(&s) % 31));
        if (b[i] == 0) b[i] = 3;
        if (i % 17 == 0) b[i] = -b[i];
        bytes[i] = (int8_t)lcg(&s);
        halves[i] = (int16_t)lcg(&s);
    }
}

void weft_kernel(void) {
    uint32_t i = weft_tid();
    int32_t x = a[i], y = b[i];
    uint32_t *o = out[i];
    o[0] = (uint32_t)(x * y);
    o[1] = (uint32_t)(((int64_t)x * (int64_t)y) >> 32);
    o[2] = (uint32_t)(((uint64_t)(uint32_t)x * (uint64_t)(uint32_t)y) >> 32);
    o[3] = (uint32_t)(((int64_t)x * (int64_t)(uint32_t)y) >> 32);
    o[4] = (y == -1 && x == INT32_MIN) ? 0 : (uint32_t)(x / y);
    o[5] = (y == -1) ? 0 : (uint32_t)(x % y);
    o[6] = (uint32_t)x / (uint32_t)y + (uint32_t)x % (uint32_t)y;
    o[7] = ((uint32_t)x >> (y & 31)) ^ (uint32_t)(x >> (i & 31)) ^ ((uint32_t)y << (x & 31));
    o[8] = (uint32_t)(x < y) | (uint32_t)((uint32_t)x < (uint32_t)y) << 1 | (uint32_t)(x == y) << 2;
    o[9] = (uint32_t)(bytes[i] + halves[i] + bytes[(i + 1) % N] * halves[(i + 3) % N]);
    /* Byte and halfword stores, to arrays no thread reads: a thread reads its
     * neighbours' inputs, so writing them back would race across warps. */
    bytes_out[i] = (int8_t)(bytes[i] ^ 0x5a);
    halves_out[i] = (int16_t)(halves[i] * 3);
}
