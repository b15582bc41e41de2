/* lud_perimeter: Rodinia's LUD lud_perimeter (the VGIW paper's Table 2 lud_perimiter, 22
 * basic blocks): the second step of a blocked LU decomposition. After lud_diagonal has
 * factored the diagonal tile, one CTA of 32 threads per tile of the block row and the
 * block column: threads 0-15 load the upper half of the diagonal tile and the row's U
 * tile, threads 16-31 the lower half and the column's L tile (two loops each, split by
 * thread index into WEFT_SHARED arrays); a barrier; threads 0-15 each solve one column
 * of U (forward substitution with the unit lower triangle), threads 16-31 each one row
 * of L (with the upper triangle and a divide per element); a barrier; each half writes
 * its tile back.
 * Launch: the first step (offset 0, the largest grid) of a 256 x 256 matrix (Rodinia's
 * run script: lud -s 256), Rodinia's grid: (256 - 0) / 16 - 1 = 15 CTAs of 32 threads,
 * 480 threads (the published input: a third of a Fermi SM's 1 536 threads, so both
 * machines run it with few threads in flight). weft_setup builds the state before it: a
 * diagonally dominant matrix from a seeded LCG (as lud_internal's), then serially what
 * lud_diagonal does at offset 0; then the perimeter serially, in the kernel's order,
 * into expected_m, which the tests compare with m. Rodinia's kernel arguments
 * (matrix_dim, offset) are globals written by weft_setup. */
#include "weft.h"

#define BLOCK_SIZE 16
#define MATRIX_DIM 256
#define OFFSET 0
#define GRID_TILES ((MATRIX_DIM - OFFSET) / BLOCK_SIZE - 1) /* 15 */
WEFT_LAUNCH(GRID_TILES * 2 * BLOCK_SIZE, 2 * BLOCK_SIZE);

float m[MATRIX_DIM * MATRIX_DIM] __attribute__((aligned(128)));
float expected_m[MATRIX_DIM * MATRIX_DIM];

/* lud_perimeter's arguments. */
int32_t matrix_dim, offset;

WEFT_SHARED float dia[BLOCK_SIZE][BLOCK_SIZE];
WEFT_SHARED float peri_row[BLOCK_SIZE][BLOCK_SIZE];
WEFT_SHARED float peri_col[BLOCK_SIZE][BLOCK_SIZE];

#define A(r, c) m[(r) * MATRIX_DIM + (c)]
#define E(r, c) expected_m[(r) * MATRIX_DIM + (c)]

void weft_setup(void) {
    matrix_dim = MATRIX_DIM;
    offset = OFFSET;
    uint32_t s = 1983;
    for (int r = 0; r < MATRIX_DIM; r++)
        for (int c = 0; c < MATRIX_DIM; c++) {
            s = s * 1664525u + 1013904223u;
            A(r, c) = (float)(s >> 8) / 16777216.0f + (r == c ? (float)MATRIX_DIM : 0.0f);
        }
    /* lud_diagonal at OFFSET: the diagonal tile factored in place (L below, U on and
     * above the diagonal), in its kernel's order. */
    const int o = OFFSET;
    for (int i = 0; i < BLOCK_SIZE - 1; i++) {
        for (int t = i + 1; t < BLOCK_SIZE; t++) {
            for (int j = 0; j < i; j++) A(o + t, o + i) -= A(o + t, o + j) * A(o + j, o + i);
            A(o + t, o + i) /= A(o + i, o + i);
        }
        for (int t = i + 1; t < BLOCK_SIZE; t++)
            for (int j = 0; j < i + 1; j++)
                A(o + i + 1, o + t) -= A(o + i + 1, o + j) * A(o + j, o + t);
    }
    /* The serial reference of this launch: the block row's U tiles and the block
     * column's L tiles, each element summed as its thread sums it. */
    for (int i = 0; i < MATRIX_DIM * MATRIX_DIM; i++) expected_m[i] = m[i];
    for (int b = 1; b <= GRID_TILES; b++) {
        int p = o + b * BLOCK_SIZE;
        for (int idx = 0; idx < BLOCK_SIZE; idx++) {
            for (int i = 1; i < BLOCK_SIZE; i++)
                for (int j = 0; j < i; j++)
                    E(o + i, p + idx) -= E(o + i, o + j) * E(o + j, p + idx);
            for (int i = 0; i < BLOCK_SIZE; i++) {
                for (int j = 0; j < i; j++)
                    E(p + idx, o + i) -= E(p + idx, o + j) * E(o + j, o + i);
                E(p + idx, o + i) /= E(o + i, o + i);
            }
        }
    }
}

void weft_kernel(void) {
    int i, j, array_offset;
    int idx;
    int tx = (int)(weft_tid() % (2 * BLOCK_SIZE));
    int bx = (int)weft_ctaid();

    if (tx < BLOCK_SIZE) {
        idx = tx;
        array_offset = offset * matrix_dim + offset;
        for (i = 0; i < BLOCK_SIZE / 2; i++) {
            dia[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
        array_offset = offset * matrix_dim + offset;
        for (i = 0; i < BLOCK_SIZE; i++) {
            peri_row[i][idx] = m[array_offset + (bx + 1) * BLOCK_SIZE + idx];
            array_offset += matrix_dim;
        }
    } else {
        idx = tx - BLOCK_SIZE;
        array_offset = (offset + BLOCK_SIZE / 2) * matrix_dim + offset;
        for (i = BLOCK_SIZE / 2; i < BLOCK_SIZE; i++) {
            dia[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
        array_offset = (offset + (bx + 1) * BLOCK_SIZE) * matrix_dim + offset;
        for (i = 0; i < BLOCK_SIZE; i++) {
            peri_col[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
    }
    weft_barrier();

    if (tx < BLOCK_SIZE) { /* peri-row */
        idx = tx;
        for (i = 1; i < BLOCK_SIZE; i++)
            for (j = 0; j < i; j++) peri_row[i][idx] -= dia[i][j] * peri_row[j][idx];
    } else { /* peri-col */
        idx = tx - BLOCK_SIZE;
        for (i = 0; i < BLOCK_SIZE; i++) {
            for (j = 0; j < i; j++) peri_col[idx][i] -= peri_col[idx][j] * dia[j][i];
            peri_col[idx][i] /= dia[i][i];
        }
    }
    weft_barrier();

    if (tx < BLOCK_SIZE) { /* peri-row */
        idx = tx;
        array_offset = (offset + 1) * matrix_dim + offset;
        for (i = 1; i < BLOCK_SIZE; i++) {
            m[array_offset + (bx + 1) * BLOCK_SIZE + idx] = peri_row[i][idx];
            array_offset += matrix_dim;
        }
    } else { /* peri-col */
        idx = tx - BLOCK_SIZE;
        array_offset = (offset + (bx + 1) * BLOCK_SIZE) * matrix_dim + offset;
        for (i = 0; i < BLOCK_SIZE; i++) {
            m[array_offset + idx] = peri_col[i][idx];
            array_offset += matrix_dim;
        }
    }
}
