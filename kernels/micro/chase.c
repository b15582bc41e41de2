/* chase: one thread follows a chain of pointers that no cache can hold, so every step
 * waits for DRAM: first 16 steps 32 KB apart (the same bank, a new row each step: row
 * conflicts), then 64 steps 128 bytes apart (consecutive lines: row hits, except the
 * first line of each 4 KB row). The tests vary the configured latencies and check that
 * each step costs exactly its own. */
#include "weft.h"

WEFT_LAUNCH(1, 1);

#define FAR 16
#define NEAR 64
#define WORDS (2u << 20) / 4 /* 2 MB */

uint32_t mem[WORDS];
uint32_t start, last;

void weft_setup(void) {
    /* The chain starts at the first 32 KB boundary inside mem (the first line of a row
     * of bank 0). */
    uint32_t skip = (uint32_t)((32768 - (uintptr_t)mem % 32768) % 32768);
    uint32_t p = start = skip / 4;
    for (uint32_t k = 1; k <= FAR; k++) { /* word index of 32 KB steps */
        mem[p] = start + k * (32768 / 4);
        p = mem[p];
    }
    for (uint32_t k = 1; k <= NEAR; k++) { /* then 128-byte steps from 1 MB */
        mem[p] = start + (1u << 20) / 4 + k * (128 / 4);
        p = mem[p];
    }
}

void weft_kernel(void) {
    uint32_t p = start;
    for (int k = 0; k < FAR + NEAR; k++) p = mem[p];
    last = p;
}
