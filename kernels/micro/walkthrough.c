/* walkthrough: the CAPRI paper's walk-through (§2.2 Figures 6-7, §3) as a kernel: a CTA
 * of 12 threads (the paper's 3 warps x 4 lanes on a 4-lane machine) runs a loop of 4
 * rounds through A -> (B | C) -> D, the branch at the end of A sending thread t
 * (t = tid mod 12) to B when to_b[round][t] is set. Rounds 1 and 2 use the paper's
 * masks (B: 0-3, 4, 7, 8, 9; C: 5, 6, 10, 11), where compaction does not pay; rounds 0
 * and 3 a mask where it does (B: 0, 1, 6, 7, 8, 9; C: 2-5, 10, 11): a CAPT sees the
 * branch adequate, twice not, then adequate again. tests/compaction_walkthrough.rs
 * launches one CTA of 12 threads and derives by hand the warps TBC forms, the warps
 * PDOM issues and CAPRI's decisions. The default launch (CTAs of 96) is for the tests
 * that run every kernel on 32-lane machines, where a CTA-wide stack needs CTAs of at
 * least a warp. */
#include "weft.h"

#define CTA 12
#define ROUNDS 4
WEFT_LAUNCH(384, 96);

static const uint8_t to_b[ROUNDS][CTA] = {
    {1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0},
    {1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0},
    {1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0},
    {1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0},
};

uint32_t out[384];

void weft_kernel(void) {
    uint32_t i = weft_tid(), t = i % CTA, v = i;
#pragma clang loop unroll(disable)
    for (int r = 0; r < ROUNDS; r++) {
        v = v * 3 + (uint32_t)r; /* A */
        if (to_b[r][t]) {
            v = (v ^ 0x5a5a) * 7; /* B */
            v += v >> 5;
        } else {
            v = (v ^ 0x3c3c) * 11; /* C */
            v -= v >> 3;
        }
        __asm__ volatile("" : "+r"(v)); /* keep both paths as branches */
        v ^= v << 2; /* D */
    }
    out[i] = v;
}
