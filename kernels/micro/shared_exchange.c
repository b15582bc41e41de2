/* shared_exchange: each CTA's threads write words, halfwords and bytes into CTA-shared
 * arrays (WEFT_SHARED), meet at weft_barrier, read their neighbours' entries and write
 * a global result; then a second round overwrites the arrays. 64 CTAs of 64 threads: a
 * core of 1024 threads holds 16 of them at once, so CTAs that shared one copy would
 * overwrite each other's entries between the write and the read. `stamp` starts from
 * its initialiser in every CTA (each CTA's copy is fresh) and thread 0 adds the CTA's
 * number to it. Uses barriers, so there is no native oracle: `expected_out` is computed
 * serially in weft_setup. */
#include "weft.h"

#define N 4096
#define CTA 64
WEFT_LAUNCH(N, CTA);

WEFT_SHARED uint32_t words[CTA];
WEFT_SHARED uint16_t halves[CTA];
WEFT_SHARED uint8_t bytes[CTA];
WEFT_SHARED uint32_t stamp = 0x9e3779b9u;

uint32_t out[N];
uint32_t expected_out[N];

static uint32_t value(uint32_t tid, uint32_t round) { return tid * 2654435761u + round * 40503u; }

/* What thread `tid` computes, from the values its neighbours wrote. */
static uint32_t reference(uint32_t tid) {
    uint32_t local = tid % CTA, base = tid - local, cta = tid / CTA;
    uint32_t right = base + (local + 1) % CTA, left = base + (local + CTA - 1) % CTA;
    uint32_t first = value(right, 0) ^ ((uint32_t)(uint16_t)value(left, 0) << 7) ^
                     (uint8_t)(value(right, 0) >> 24);
    uint32_t mirror = base + CTA - 1 - local;
    return first + value(mirror, 1) + (0x9e3779b9u + cta);
}

void weft_setup(void) {
    for (uint32_t t = 0; t < N; t++) expected_out[t] = reference(t);
}

void weft_kernel(void) {
    uint32_t tid = weft_tid(), local = tid % CTA;
    uint32_t v = value(tid, 0);
    words[local] = v;
    halves[local] = (uint16_t)v;
    bytes[local] = (uint8_t)(v >> 24);
    if (local == 0) stamp += weft_ctaid();
    weft_barrier();
    uint32_t right = (local + 1) % CTA, left = (local + CTA - 1) % CTA;
    uint32_t first = words[right] ^ ((uint32_t)halves[left] << 7) ^ bytes[right];
    uint32_t s = stamp;
    weft_barrier();
    words[local] = value(tid, 1);
    weft_barrier();
    out[tid] = first + words[CTA - 1 - local] + s;
}
