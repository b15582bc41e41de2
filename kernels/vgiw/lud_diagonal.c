/* lud_diagonal: Rodinia's LUD lud_diagonal (the VGIW paper's Table 2 lud_diagonal, 11
 * basic blocks): the LU factorisation of one 16 x 16 diagonal tile by one CTA of 16
 * threads, thread tx owning column tx. The tile goes to a WEFT_SHARED array; then for each
 * of 15 pivots i, the threads below the pivot (tx > i, so fewer every step: divergent by
 * thread index) finish column i of L (a dot product over the j < i already done, then a
 * divide by the pivot), a barrier, they finish row i + 1 of U, a barrier; rows 1-15 go
 * back to memory (row 0 is U's first row as it came).
 * Launch: Rodinia launches lud_diagonal with one CTA per step (lud_cuda: <<<1, 16>>>), 16
 * threads; one launch of 256 such CTAs here, each the diagonal tile of its own matrix:
 * 256 independent 16 x 16 matrices side by side in a 16 x 4096 array (matrix_dim 4096,
 * CTA c's tile at column offset 16 c), so each CTA reads and writes its rows 16 floats
 * at a time with rows matrix_dim apart, as Rodinia's does. 4 096 threads. The matrices are
 * diagonally dominant, from a seeded LCG; weft_setup also factors them serially, in the
 * kernel's order, into expected_m, which the tests compare with m. Rodinia's kernel
 * argument matrix_dim is a global written by weft_setup. */
#include "weft.h"

#define BLOCK_SIZE 16
#define TILES 256
#define MATRIX_DIM (TILES * BLOCK_SIZE)
WEFT_LAUNCH(TILES * BLOCK_SIZE, BLOCK_SIZE);

float m[BLOCK_SIZE * MATRIX_DIM] __attribute__((aligned(128)));
float expected_m[BLOCK_SIZE * MATRIX_DIM];

/* lud_diagonal's argument. */
int32_t matrix_dim;

WEFT_SHARED float shadow[BLOCK_SIZE][BLOCK_SIZE];

void weft_setup(void) {
    matrix_dim = MATRIX_DIM;
    uint32_t s = 1982;
    for (int r = 0; r < BLOCK_SIZE; r++)
        for (int c = 0; c < MATRIX_DIM; c++) {
            s = s * 1664525u + 1013904223u;
            float v = (float)(s >> 8) / 16777216.0f * 2.0f - 1.0f;
            m[r * MATRIX_DIM + c] = expected_m[r * MATRIX_DIM + c] =
                v + (r == c % BLOCK_SIZE ? (float)BLOCK_SIZE : 0.0f);
        }
    /* The serial reference: each tile factored in place as the kernel's threads do it. */
    for (int t = 0; t < TILES; t++) {
        float *a = &expected_m[t * BLOCK_SIZE];
#define E(r, c) a[(r) * MATRIX_DIM + (c)]
        for (int i = 0; i < BLOCK_SIZE - 1; i++) {
            for (int tx = i + 1; tx < BLOCK_SIZE; tx++) {
                for (int j = 0; j < i; j++) E(tx, i) -= E(tx, j) * E(j, i);
                E(tx, i) /= E(i, i);
            }
            for (int tx = i + 1; tx < BLOCK_SIZE; tx++)
                for (int j = 0; j < i + 1; j++) E(i + 1, tx) -= E(i + 1, j) * E(j, tx);
        }
#undef E
    }
}

void weft_kernel(void) {
    int i, j;
    int tx = (int)(weft_tid() % BLOCK_SIZE);
    /* The CTA's tile (Rodinia's diagonal tile starts at offset * (matrix_dim + 1)). */
    int offset = (int)weft_ctaid() * BLOCK_SIZE;

    int array_offset = offset;
    for (i = 0; i < BLOCK_SIZE; i++) {
        shadow[i][tx] = m[array_offset + tx];
        array_offset += matrix_dim;
    }
    weft_barrier();
    for (i = 0; i < BLOCK_SIZE - 1; i++) {
        if (tx > i) {
            for (j = 0; j < i; j++) shadow[tx][i] -= shadow[tx][j] * shadow[j][i];
            shadow[tx][i] /= shadow[i][i];
        }
        weft_barrier();
        if (tx > i) {
            for (j = 0; j < i + 1; j++) shadow[i + 1][tx] -= shadow[i + 1][j] * shadow[j][tx];
        }
        weft_barrier();
    }

    /* Row 0 is not modified: rows 1-15 go back. */
    array_offset = matrix_dim + offset;
    for (i = 1; i < BLOCK_SIZE; i++) {
        m[array_offset + tx] = shadow[i][tx];
        array_offset += matrix_dim;
    }
}
