/* branch_split: the twin of branch_aligned.c with a condition that splits every
 * warp in half (odd and even threads): both paths issue with half the lanes each, so
 * PDOM pays the loop body twice per warp. The only difference from its twin is the
 * condition. */
#include "weft.h"

#define N 1024
WEFT_LAUNCH(N, 256);

uint32_t out[N];

void weft_kernel(void) {
    uint32_t i = weft_tid(), a = i, b = ~i;
    int side = i & 1; /* splits every warp */
    for (int k = 0; k < 64; k++) {
        if (side) {
            a = a * 3 + 1; a ^= a >> 7; a += k; a = a * 5 + 3; a ^= a << 3;
        } else {
            b = b * 7 + 5; b ^= b >> 5; b += k; b = b * 9 + 1; b ^= b << 2;
        }
        __asm__ volatile("" : "+r"(a), "+r"(b)); /* keep both paths as branches */
    }
    out[i] = a ^ b;
}
