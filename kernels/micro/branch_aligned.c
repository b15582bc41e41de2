/* branch_aligned: a data-dependent branch inside a loop whose outcome is the same for
 * every thread of a 32-thread warp (warps alternate between the two paths). With no
 * divergence and no memory in the loop, IPC stays near the lane count. Its twin
 * branch_split.c differs only in the condition. */
#include "weft.h"

#define N 1024
WEFT_LAUNCH(N, 256);

uint32_t out[N];

void weft_kernel(void) {
    uint32_t i = weft_tid(), a = i, b = ~i;
    int side = (i >> 5) & 1; /* warp-aligned */
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
