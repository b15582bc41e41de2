/* rtl_bounds: a bounds-checked kernel with a divide: threads below n (a global that
 * weft_setup draws, under the 256 launched) store quot[i] = num[i] / den[i] and
 * rem[i] = num[i] % den[i]; the others return at once. Written for the RTL VGIW core
 * (docs/core.md §7): two blocks, no live value (the body reads the thread index
 * again), the divisions on the fabric's divide units. */
#include "weft.h"

#define N 256
WEFT_LAUNCH(N, 64);

uint32_t n;
uint32_t num[N], den[N], quot[N], rem[N];

static uint32_t lcg(uint32_t *s) { return *s = *s * 1103515245u + 12345u; }

void weft_setup(void) {
    uint32_t s = 31;
    n = 160 + (lcg(&s) >> 26); /* 160..223 */
    for (int i = 0; i < N; i++) {
        num[i] = lcg(&s);
        den[i] = 1 + (lcg(&s) >> 20); /* never zero: the native run divides too */
    }
}

void weft_kernel(void) {
    if (weft_tid() >= n) return;
    uint32_t i = weft_tid();
    quot[i] = num[i] / den[i];
    rem[i] = num[i] % den[i];
}
