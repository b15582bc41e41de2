/* lud_internal: Rodinia's LUD lud_internal (the VGIW paper's Table 2 lud_internal, 3 basic
 * blocks): the trailing-matrix update of a blocked LU decomposition. Rodinia's lud_cuda
 * factors a matrix 16 x 16 tile by tile; at each step (offset) lud_diagonal factors the
 * diagonal tile, lud_perimeter the tiles of its block row (U) and column (L), and
 * lud_internal, one CTA of 16 x 16 threads per tile of the trailing matrix, subtracts
 * L x U: a thread (tx, ty) = (tid % 16, tid / 16 % 16) copies one element of its row's L
 * tile and its column's U tile into WEFT_SHARED arrays, waits at the barrier, then takes
 * the 16-term dot product and updates its element. No thread-dependent branch: the
 * coalesced, computational case.
 * Launch: the first step (offset 0, the largest grid) of a 256 x 256 matrix (Rodinia's
 * run script: lud -s 256): 15 x 15 CTAs of 256 threads, 57 600 threads. weft_setup builds
 * the state before it: a diagonally dominant matrix from a seeded LCG (Rodinia's
 * create_matrix needs exp, which setups may not call), then serially what lud_diagonal
 * and lud_perimeter do at offset 0; then the update serially into expected_m, which the
 * tests compare with m. Rodinia's kernel arguments (matrix_dim, offset) are globals
 * written by weft_setup. */
#include "weft.h"

#define BLOCK_SIZE 16
#define MATRIX_DIM 256
#define OFFSET 0
#define GRID_TILES ((MATRIX_DIM - OFFSET) / BLOCK_SIZE - 1) /* 15 per side */
WEFT_LAUNCH(GRID_TILES * GRID_TILES * BLOCK_SIZE * BLOCK_SIZE, BLOCK_SIZE * BLOCK_SIZE);

float m[MATRIX_DIM * MATRIX_DIM] __attribute__((aligned(128)));
float expected_m[MATRIX_DIM * MATRIX_DIM];

/* lud_internal's arguments. */
int32_t matrix_dim, offset;

WEFT_SHARED float peri_row[BLOCK_SIZE][BLOCK_SIZE];
WEFT_SHARED float peri_col[BLOCK_SIZE][BLOCK_SIZE];

#define A(r, c) m[(r) * MATRIX_DIM + (c)]

void weft_setup(void) {
    matrix_dim = MATRIX_DIM;
    offset = OFFSET;
    uint32_t s = 1979;
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
    /* lud_perimeter at OFFSET: the block row's U tiles and the block column's L tiles. */
    for (int b = 1; b <= GRID_TILES; b++) {
        int p = o + b * BLOCK_SIZE;
        for (int idx = 0; idx < BLOCK_SIZE; idx++) {
            for (int i = 1; i < BLOCK_SIZE; i++)
                for (int j = 0; j < i; j++)
                    A(o + i, p + idx) -= A(o + i, o + j) * A(o + j, p + idx);
            for (int i = 0; i < BLOCK_SIZE; i++) {
                for (int j = 0; j < i; j++)
                    A(p + idx, o + i) -= A(p + idx, o + j) * A(o + j, o + i);
                A(p + idx, o + i) /= A(o + i, o + i);
            }
        }
    }
    /* The serial reference of this launch: every trailing element less its L x U term,
     * summed as the kernel sums it. */
    for (int i = 0; i < MATRIX_DIM * MATRIX_DIM; i++) expected_m[i] = m[i];
    for (int r = o + BLOCK_SIZE; r < MATRIX_DIM; r++)
        for (int c = o + BLOCK_SIZE; c < MATRIX_DIM; c++) {
            float sum = 0;
            for (int i = 0; i < BLOCK_SIZE; i++) sum += A(r, o + i) * A(o + i, c);
            expected_m[r * MATRIX_DIM + c] -= sum;
        }
}

void weft_kernel(void) {
    uint32_t local = weft_tid() % (BLOCK_SIZE * BLOCK_SIZE);
    int tx = (int)(local % BLOCK_SIZE), ty = (int)(local / BLOCK_SIZE);
    int bx = (int)(weft_ctaid() % GRID_TILES), by = (int)(weft_ctaid() / GRID_TILES);
    int i;
    float sum;

    int global_row_id = offset + (by + 1) * BLOCK_SIZE;
    int global_col_id = offset + (bx + 1) * BLOCK_SIZE;

    peri_row[ty][tx] = m[(offset + ty) * matrix_dim + global_col_id + tx];
    peri_col[ty][tx] = m[(global_row_id + ty) * matrix_dim + offset + tx];

    weft_barrier();

    sum = 0;
    for (i = 0; i < BLOCK_SIZE; i++) sum += peri_col[ty][i] * peri_row[i][tx];
    m[(global_row_id + ty) * matrix_dim + global_col_id + tx] -= sum;
}
