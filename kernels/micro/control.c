/* control: data-dependent branches and loops, a called function with a divergent
 * branch inside it, a switch (no jump tables) and a struct copy. */
#include "weft.h"

#define N 1024
WEFT_LAUNCH(N, 256);

struct pair { uint32_t lo, hi, steps, kind; };
uint32_t seed[N];
struct pair result[N];

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }

void weft_setup(void) {
    uint32_t s = 2024;
    for (int i = 0; i < N; i++) seed[i] = lcg(&s);
}

__attribute__((noinline)) static uint32_t collatz_steps(uint32_t v) {
    uint32_t n = 0;
    v = (v % 1000) + 1;
    while (v != 1 && n < 200) {
        v = (v & 1) ? 3 * v + 1 : v / 2;
        n++;
    }
    return n;
}

void weft_kernel(void) {
    uint32_t i = weft_tid();
    uint32_t v = seed[i];
    struct pair r = {0, 0, 0, 0};
    r.steps = collatz_steps(v);
    switch (v % 5) {
    case 0: r.kind = v >> 3; break;
    case 1: r.kind = v * 7; break;
    case 2: r.kind = ~v; break;
    case 3: r.kind = v ^ 0xdeadbeef; break;
    default: r.kind = 42; break;
    }
    for (uint32_t k = 0; k < (v & 15); k++) {
        if ((v >> k) & 1) r.lo += k; else r.hi += k * k;
    }
    struct pair copy = r;
    result[i] = copy;
}
