/* viterbi: per-thread Viterbi decoding of a noisy rate-1/2 convolutional code, modelled
 * on the "viterbi" benchmark of the LWM paper (Table 2). Code: K=5 (16 states),
 * generators 0x19/0x17 (octal 31/27); each thread decodes its own 64-bit message plus
 * 4 zero tail bits from 3-bit soft symbols (0..7): per step, per state an
 * add-compare-select with if (m0 < m1), survivor decisions kept as one 16-bit word
 * per step in private memory, then a traceback from state 0. Writes the decoded bits,
 * the final path metric and the bit errors against the sent message. Input: random
 * messages from an LCG (seed 777), encoded in weft_setup and sent through a channel
 * with approximately Gaussian noise (sum of 4 uniforms). Size: 1024 threads x 68 steps. */
#include "weft.h"

#define N 1024
#define BITS 64
#define TAIL 4
#define STEPS (BITS + TAIL)
#define NS 16 /* 2^(K-1) states */
#define G0 0x19u
#define G1 0x17u
WEFT_LAUNCH(N, 256);

uint32_t msg[2 * N];            /* sent message, word w of thread t at w*N+t */
uint8_t rx[2 * STEPS * N];      /* soft symbol j of step k of thread t at (2k+j)*N+t */
uint32_t decoded[2 * N];        /* decoded message, same layout as msg */
uint32_t path_metric[N];
uint32_t bit_errors[N];

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }
static uint32_t parity(uint32_t v) { v ^= v >> 4; v ^= v >> 2; v ^= v >> 1; return v & 1; }

void weft_setup(void) {
    uint32_t s = 777;
    for (int i = 0; i < 2 * N; i++) msg[i] = lcg(&s);
    for (int t = 0; t < N; t++) {
        uint32_t state = 0;
        for (int k = 0; k < STEPS; k++) {
            uint32_t b = k < BITS ? (msg[(k >> 5) * N + t] >> (k & 31)) & 1 : 0;
            uint32_t reg = (state << 1) | b; /* 5 bits: newest input in bit 0 */
            uint32_t o[2] = {parity(reg & G0), parity(reg & G1)};
            for (int j = 0; j < 2; j++) {
                int32_t noise = (int32_t)((lcg(&s) >> 24) + (lcg(&s) >> 24) +
                                          (lcg(&s) >> 24) + (lcg(&s) >> 24)) - 510;
                int32_t v = (o[j] ? 7 : 0) + noise / 55; /* sigma about 2.7 levels */
                rx[(2 * k + j) * N + t] = (uint8_t)(v < 0 ? 0 : v > 7 ? 7 : v);
            }
            state = reg & (NS - 1);
        }
    }
}

void weft_kernel(void) {
    uint32_t t = weft_tid();
    uint32_t pm[NS], npm[NS];
    uint16_t surv[STEPS]; /* private: bit ns set when the survivor into ns came via s1 */
    pm[0] = 0;
    for (int s = 1; s < NS; s++) pm[s] = 1u << 20; /* the encoder starts in state 0 */

    for (int k = 0; k < STEPS; k++) {
        uint32_t r0 = rx[(2 * k) * N + t], r1 = rx[(2 * k + 1) * N + t];
        uint32_t bm[4]; /* branch metric of output pair (o0 | o1 << 1) */
        bm[0] = r0 + r1;
        bm[1] = (7 - r0) + r1;
        bm[2] = r0 + (7 - r1);
        bm[3] = (7 - r0) + (7 - r1);
        uint32_t dec = 0;
#pragma clang loop unroll(full) /* the trellis outputs fold to constants */
        for (uint32_t ns = 0; ns < NS; ns++) {
            uint32_t s0 = ns >> 1, s1 = s0 | (NS >> 1);
            uint32_t reg0 = ns | (s0 << 1), reg1 = ns | (s1 << 1); /* 5-bit registers */
            uint32_t m0 = pm[s0] + bm[parity(reg0 & G0) | parity(reg0 & G1) << 1];
            uint32_t m1 = pm[s1] + bm[parity(reg1 & G0) | parity(reg1 & G1) << 1];
            if (m0 < m1 || m0 == m1) {
                npm[ns] = m0;
            } else {
                npm[ns] = m1;
                dec |= 1u << ns;
            }
        }
        surv[k] = (uint16_t)dec;
#pragma clang loop unroll(full)
        for (int s = 0; s < NS; s++) pm[s] = npm[s];
    }

    /* Traceback from state 0 (the tail bits flush the encoder). */
    uint32_t state = 0, w0 = 0, w1 = 0;
    for (int k = STEPS - 1; k >= 0; k--) {
        uint32_t b = state & 1; /* the input bit that entered at step k */
        if (k < 32) w0 |= b << k;
        else if (k < BITS) w1 |= b << (k - 32);
        state = (state >> 1) | (((surv[k] >> state) & 1) << 3);
    }
    decoded[t] = w0;
    decoded[N + t] = w1;
    path_metric[t] = pm[0];
    uint32_t e0 = w0 ^ msg[t], e1 = w1 ^ msg[N + t], e = 0;
    while (e0) { e += e0 & 1; e0 >>= 1; }
    while (e1) { e += e1 & 1; e1 >>= 1; }
    bit_errors[t] = e;
}
