/* collatz: each thread counts the Collatz steps of its own start value (n := n / 2 when
 * even, 3n + 1 when odd, until n == 1). The trip counts are data-dependent (0 to a few
 * hundred; start values below 65 536 stay below 2^32), so the threads of a warp leave
 * the loop at many different iterations: without SPEC §2.4's refinements the stack
 * needs an entry per exit iteration, with them two (the base and the loop).
 * The step is branch-free on purpose: written as an if/else, clang copies the loop
 * test into both arms, every branch then reconverges only at the loop exit, and the
 * warp's paths pile up on the stack whatever its rules. */
#include "weft.h"

#define N 1024
WEFT_LAUNCH(N, 256);

uint32_t start[N];
uint32_t steps[N];

static uint32_t lcg(uint32_t *s) { return *s = *s * 1103515245u + 12345u; }

void weft_setup(void) {
    uint32_t s = 28;
    for (int i = 0; i < N; i++) start[i] = 1 + (lcg(&s) >> 8) % 65535;
}

void weft_kernel(void) {
    uint32_t i = weft_tid(), n = start[i], k = 0;
    while (n != 1) {
        uint32_t odd = 0u - (n & 1); /* all ones when n is odd */
        n = ((3 * n + 1) & odd) | ((n / 2) & ~odd);
        k++;
    }
    steps[i] = k;
}
