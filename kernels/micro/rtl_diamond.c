/* rtl_diamond: an if/else on data. Each thread loads v; odd values go one way (odd[i] =
 * 3v + 1), even ones the other (even[i] = v >> 1); both meet to store sum[i] = v + 7.
 * Written for the RTL VGIW core (docs/core.md §7): four blocks, v the one live value
 * (each side and the join read it), the thread index read again where it is used
 * instead of carried (the fabric has two live value units). Without the empty asm in
 * one side, clang sinks both sides' stores into the join, which then reads four live
 * values (the value, its address's parts). */
#include "weft.h"

#define N 256
WEFT_LAUNCH(N, 64);

uint32_t in[N], odd[N], even[N], sum[N];

static uint32_t lcg(uint32_t *s) { return *s = *s * 1103515245u + 12345u; }

void weft_setup(void) {
    uint32_t s = 77;
    for (int i = 0; i < N; i++) in[i] = lcg(&s) >> 3;
}

void weft_kernel(void) {
    uint32_t v = in[weft_tid()];
    if (v & 1) {
        odd[weft_tid()] = 3 * v + 1;
        __asm__ volatile("" ::: "memory"); /* keeps clang from merging the two stores */
    } else {
        even[weft_tid()] = v >> 1;
    }
    sum[weft_tid()] = v + 7;
}
