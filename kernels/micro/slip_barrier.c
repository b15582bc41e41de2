/* slip_barrier: diverge on miss around barriers. Every thread walks its own scattered
 * addresses in a table larger than a small L1 inside nested loops whose trip counts differ
 * per thread; between rounds the CTA's threads exchange values through global memory
 * between two barriers (a thread reads its neighbour's value), and after the rounds some
 * threads return early. Results are per thread; a machine may only change when threads
 * run, never what they compute. Uses barriers, so it has no native oracle: the tests
 * compare its timed runs with its functional run. */
#include "weft.h"

#define N 128
#define CTA 32 /* one warp: the study runs 1 warp too */
#define T 4096 /* table words: 16 KB */
WEFT_LAUNCH(N, CTA);

uint32_t table[T];
uint32_t posted[N];
uint32_t out[N];

static uint32_t lcg(uint32_t s) { return s * 1664525u + 1013904223u; }

void weft_setup(void) {
    uint32_t s = 91;
    for (int i = 0; i < T; i++) table[i] = s = lcg(s);
}

void weft_kernel(void) {
    uint32_t i = weft_tid(), local = i % CTA, base = i - local;
    uint32_t at = lcg(i * 2654435761u) % T, acc = i;
    for (uint32_t round = 0; round < 3; round++) {
        for (uint32_t k = 0; k < 3 + (i & 3); k++) {       /* trip counts differ */
            for (uint32_t m = 0; m < 2 + ((i >> 2) & 3); m++) {
                uint32_t v = table[at];                     /* scattered: lanes miss apart */
                at = (at + 1 + (v & 255)) % T;
                acc += v >> (m & 7);
            }
        }
        posted[i] = acc;
        weft_barrier();                                     /* every value posted */
        acc ^= posted[base + (local + 1) % CTA];
        weft_barrier();                                     /* every value read */
    }
    if (acc & 1) { /* an early return */
        out[i] = acc;
        return;
    }
    out[i] = acc + 1;
}
