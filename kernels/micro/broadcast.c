/* broadcast: every thread of a warp loads the same word at each step (an address from
 * its CTA and the step, never its lane), so each load hits or misses for the whole warp.
 * Diverge on miss then never splits a warp: it must time the kernel exactly as blocking
 * does. */
#include "weft.h"

#define N 512
#define T 8192 /* table words: 32 KB */
WEFT_LAUNCH(N, 32);

uint32_t table[T];
uint32_t out[N];

void weft_setup(void) {
    uint32_t s = 9;
    for (int i = 0; i < T; i++) table[i] = s = s * 1664525u + 1013904223u;
}

void weft_kernel(void) {
    uint32_t cta = weft_ctaid(), acc = weft_tid();
    uint32_t at = (cta * 2654435761u) % T;
    for (uint32_t k = 0; k < 24; k++) {
        uint32_t v = table[at];
        at = (at + 97 + (v & 1023)) % T; /* the same for every thread of the warp */
        acc = acc * 3 + (v >> (k & 15));
    }
    out[weft_tid()] = acc;
}
