/* shared_edge: a word access that straddles the edge of CTA-shared memory (the section
 * holds only the 3 bytes of `edge`, so the aligned word around its first byte is partly
 * outside). The model refuses it with a message; the tests check that. */
#include "weft.h"

WEFT_LAUNCH(32, 32);

WEFT_SHARED uint8_t edge[3];
uint32_t out[32];

void weft_kernel(void) {
    uintptr_t word = (uintptr_t)&edge[0] & ~(uintptr_t)3;
    out[weft_tid()] = *(volatile uint32_t *)word;
}
