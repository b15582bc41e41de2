/* matrix_mult: the classic matrix multiplication C = A x B of 128 x 128 floats (LWM
 * Table 2's matrix_mult, after the CUDA SDK's). Thread t computes the 16 elements of
 * column t % 128 in rows t / 128 + 8j: per k, A[row][k] is one word for the whole warp
 * (a broadcast) and B[k][col] a coalesced row segment; a multiply-add per element and
 * step. Inputs from a seeded LCG. */
#include "weft.h"

#define M 128
WEFT_LAUNCH(1024, 256);

float A[M][M] __attribute__((aligned(128)));
float B[M][M] __attribute__((aligned(128)));
float C[M][M] __attribute__((aligned(128)));

void weft_setup(void) {
    uint32_t s = 4242;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++) {
            s = s * 1664525u + 1013904223u;
            A[i][j] = (float)(s >> 16) / 32768.0f - 1.0f;
            s = s * 1664525u + 1013904223u;
            B[i][j] = (float)(s >> 16) / 32768.0f - 1.0f;
        }
}

void weft_kernel(void) {
    uint32_t t = weft_tid(), col = t % M;
    for (uint32_t row = t / M; row < M; row += 1024 / M) {
        float acc = 0.0f;
        for (int k = 0; k < M; k++) acc += A[row][k] * B[k][col];
        C[row][col] = acc;
    }
}
