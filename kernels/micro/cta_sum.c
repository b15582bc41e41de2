/* cta_sum: each CTA sums its threads' values through shared data and weft_barrier (a
 * tree reduction); uses barriers, so it has no native oracle: its answer is known, the
 * sum of 1..cta of each CTA's values, checked by the tests. */
#include "weft.h"

#define N 256
#define CTA 64
WEFT_LAUNCH(N, CTA);

uint32_t partial[N];
uint32_t sums[N / CTA];

void weft_kernel(void) {
    uint32_t i = weft_tid(), local = i % CTA, base = i - local;
    partial[i] = i + 1;
    for (uint32_t stride = CTA / 2; stride > 0; stride /= 2) {
        weft_barrier();
        if (local < stride) partial[i] += partial[i + stride];
    }
    if (local == 0) sums[weft_ctaid()] = partial[base];
}
