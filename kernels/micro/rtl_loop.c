/* rtl_loop: a counted loop whose trip count is data: thread i runs count[i] (0..7)
 * iterations of acc[i] = 3 acc[i] + k, k counting down. Written for the RTL VGIW core
 * (docs/core.md §7): the counter is the loop's one live value (read and written each
 * iteration: both live value units), acc[i] stays in memory (the empty asm with a
 * memory clobber keeps clang from carrying it in a register) and the thread index is
 * read again in the body. */
#include "weft.h"

#define N 256
WEFT_LAUNCH(N, 64);

uint32_t count[N], acc[N];

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }

void weft_setup(void) {
    uint32_t s = 9;
    for (int i = 0; i < N; i++) {
        count[i] = lcg(&s) >> 29;
        acc[i] = lcg(&s);
    }
}

void weft_kernel(void) {
    for (uint32_t k = count[weft_tid()]; k != 0; k--) {
        uint32_t i = weft_tid();
        acc[i] = 3 * acc[i] + k;
        __asm__ volatile("" ::: "memory");
    }
}
