/* slip: diverge on miss's hard cases in one kernel. Every thread walks its own scattered
 * addresses in a table larger than a small L1, so the threads of a warp hit and miss at
 * different times; the loads sit inside nested loops with trip counts that differ per
 * thread, next to a called function (a forced reconvergence point: calls and returns),
 * and some threads return early. Results are per thread; a machine may only change when
 * threads run, never what they compute. */
#include "weft.h"

#define N 256
#define T 4096 /* table words: 16 KB */
WEFT_LAUNCH(N, 32);

uint32_t table[T];
uint32_t out[N];
uint32_t steps[N];

static uint32_t lcg(uint32_t s) { return s * 1664525u + 1013904223u; }

void weft_setup(void) {
    uint32_t s = 77;
    for (int i = 0; i < T; i++) table[i] = s = lcg(s);
}

/* Not inlined: a call and a return inside the slipping loop. */
__attribute__((noinline)) static uint32_t mix(uint32_t a, uint32_t b) {
    if (a & 1) return a ^ (b >> 3);
    return a + b * 3;
}

void weft_kernel(void) {
    uint32_t i = weft_tid();
    uint32_t at = lcg(i * 2654435761u) % T;
    uint32_t acc = i, n = 0;
    if ((i & 7) == 5) { /* an early return before any load */
        out[i] = 1;
        steps[i] = 0;
        return;
    }
    for (uint32_t outer = 0; outer < 3 + (i & 3); outer++) {
        uint32_t inner = 4 + ((i >> 2) & 7);
        for (uint32_t k = 0; k < inner; k++) {
            uint32_t v = table[at];       /* scattered: lanes miss apart */
            at = (at + 1 + (v & 255)) % T;
            acc += v >> (k & 7);
            n++;
            if (acc % 13 == 0) break;      /* a divergent exit of the inner loop */
        }
        if (outer == 1) acc = mix(acc, table[(at * 7) % T]);
        if ((acc & 0x3f) == 0x2a) {       /* an early return inside the loops */
            out[i] = acc;
            steps[i] = n;
            return;
        }
    }
    out[i] = acc;
    steps[i] = n;
}
