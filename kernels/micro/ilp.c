/* ilp: four independent chains of integer multiply-adds per thread, one warp. Under
 * barrel processing the warp issues one instruction per pipeline pass whatever the
 * dependences; a scoreboard issues an instruction as soon as its operands are written,
 * so the four chains overlap. */
#include "weft.h"

WEFT_LAUNCH(32, 32);

uint32_t out[32];

void weft_kernel(void) {
    uint32_t i = weft_tid(), a = i, b = i + 1, c = i + 2, d = i + 3;
    for (int k = 0; k < 256; k++) {
        a = a * 1664525u + 1013904223u;
        b = b * 22695477u + 1u;
        c = c * 1103515245u + 12345u;
        d = d * 134775813u + 1u;
    }
    out[i] = a ^ b ^ c ^ d;
}
