/* nw2: Rodinia's NW needle_cuda_shared_2 (the VGIW paper's Table 2 needle_cuda_shared_2, 13
 * basic blocks): the second half of Needleman-Wunsch (nw.c is the first,
 * needle_cuda_shared_1): the same tile kernel, a CTA of 16 threads per 16 x 16 tile, on
 * the anti-diagonals of tiles below the main one. Rodinia (`needle 2048 10`) launches it
 * once per anti-diagonal, i = block_width - 1 .. 1, with i CTAs, CTA bx on tile
 * (bx + block_width - i, block_width - bx - 1); here one launch of its longest
 * anti-diagonal (i = 15) of the batch of 16 alignments of nw.c (its sizes, sequences,
 * scores and gap penalty): 15 CTAs per alignment, CTA c working on alignment c / 15;
 * 240 CTAs, 3 840 threads. weft_setup fills every tile before the launch's anti-diagonal
 * serially (the state the earlier launches leave) and, into expected_matrix, the
 * launch's tiles too, which the tests compare with matrix. Rodinia's kernel arguments
 * (cols, penalty, i, block_width) are globals written by weft_setup. */
#include "weft.h"

#define BLOCK_SIZE 16
#define PROBLEMS 16
#define LEN 256                       /* residues per sequence: max_rows - 1 */
#define COLS (LEN + 1)                /* max_cols */
#define BLOCK_WIDTH (LEN / BLOCK_SIZE) /* tiles per side */
#define SIZE (COLS * COLS)
#define PENALTY 10
#define LAUNCH_I (BLOCK_WIDTH - 1) /* the longest launch of needle_cuda_shared_2 */
WEFT_LAUNCH(PROBLEMS * LAUNCH_I * BLOCK_SIZE, BLOCK_SIZE);

int32_t referrence[PROBLEMS * SIZE] __attribute__((aligned(128)));
int32_t matrix[PROBLEMS * SIZE] __attribute__((aligned(128)));
int32_t expected_matrix[PROBLEMS * SIZE];
int32_t seq_rows[LEN + 1], seq_cols[LEN + 1]; /* one alignment's residues, while setup draws them */

/* needle_cuda_shared_2's arguments. */
int32_t cols, penalty, launch_i, block_width;

WEFT_SHARED int32_t temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
WEFT_SHARED int32_t ref[BLOCK_SIZE][BLOCK_SIZE];

/* BLOSUM62 for the residues Rodinia draws (A R N D C Q E G H I L, its first 11). */
static const int32_t blosum62[11][11] = {
    {4, -1, -2, -2, 0, -1, -1, 0, -2, -1, -1},    {-1, 5, 0, -2, -3, 1, 0, -2, 0, -3, -2},
    {-2, 0, 6, 1, -3, 0, 0, 0, 1, -3, -3},       {-2, -2, 1, 6, -3, 0, 2, -1, -1, -3, -4},
    {0, -3, -3, -3, 9, -3, -4, -3, -3, -1, -1},  {-1, 1, 0, 0, -3, 5, 2, -2, 0, -3, -2},
    {-1, 0, 0, 2, -4, 2, 5, -2, 0, -3, -3},      {0, -2, 0, -1, -3, -2, -2, 6, -2, -4, -4},
    {-2, 0, 1, -1, -3, 0, 0, -2, 8, -3, -3},     {-1, -3, -3, -3, -1, -3, -3, -4, -3, 4, 2},
    {-1, -2, -3, -4, -1, -2, -3, -4, -3, 2, 4}};

static int maximum(int a, int b, int c) {
    int k;
    if (a <= b) k = b;
    else k = a;
    if (k <= c) return c;
    else return k;
}

void weft_setup(void) {
    cols = COLS;
    penalty = PENALTY;
    launch_i = LAUNCH_I;
    block_width = BLOCK_WIDTH;
    uint32_t s = 7;
    for (int p = 0; p < PROBLEMS; p++) {
        int32_t *r = &referrence[p * SIZE], *mx = &matrix[p * SIZE];
        int32_t *e = &expected_matrix[p * SIZE];
        for (int i = 1; i <= LEN; i++) {
            s = s * 1664525u + 1013904223u;
            seq_rows[i] = (int32_t)((s >> 16) % 10) + 1;
        }
        for (int j = 1; j <= LEN; j++) {
            s = s * 1664525u + 1013904223u;
            seq_cols[j] = (int32_t)((s >> 16) % 10) + 1;
        }
        for (int i = 1; i <= LEN; i++)
            for (int j = 1; j <= LEN; j++) r[i * COLS + j] = blosum62[seq_rows[i]][seq_cols[j]];
        for (int i = 1; i <= LEN; i++) mx[i * COLS] = e[i * COLS] = -i * PENALTY;
        for (int j = 1; j <= LEN; j++) mx[j] = e[j] = -j * PENALTY;
        /* Tile (bx, by) holds rows 16 by + 1.. and columns 16 bx + 1..; this launch works on
         * the tiles with bx + by = BLOCK_WIDTH: the earlier launches filled those above
         * it. */
        for (int i = 1; i <= LEN; i++)
            for (int j = 1; j <= LEN; j++) {
                int diagonal = (i - 1) / BLOCK_SIZE + (j - 1) / BLOCK_SIZE;
                if (diagonal > BLOCK_WIDTH) continue;
                int v = maximum(e[(i - 1) * COLS + j - 1] + r[i * COLS + j],
                                e[i * COLS + j - 1] - PENALTY, e[(i - 1) * COLS + j] - PENALTY);
                e[i * COLS + j] = v;
                if (diagonal < BLOCK_WIDTH) mx[i * COLS + j] = v;
            }
    }
}

void weft_kernel(void) {
    int bx = (int)(weft_ctaid() % LAUNCH_I); /* blockIdx.x of the alignment's grid */
    int problem = (int)(weft_ctaid() / LAUNCH_I);
    int tx = (int)(weft_tid() % BLOCK_SIZE);
    const int32_t *reference = &referrence[problem * SIZE];
    int32_t *matrix_cuda = &matrix[problem * SIZE];

    int b_index_x = bx + block_width - launch_i;
    int b_index_y = block_width - bx - 1;

    int index = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (cols + 1);
    int index_n = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (1);
    int index_w = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + (cols);
    int index_nw = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x;

    if (tx == 0) temp[tx][0] = matrix_cuda[index_nw];

    for (int ty = 0; ty < BLOCK_SIZE; ty++) ref[ty][tx] = reference[index + cols * ty];

    weft_barrier();

    temp[tx + 1][0] = matrix_cuda[index_w + cols * tx];

    weft_barrier();

    temp[0][tx + 1] = matrix_cuda[index_n];

    weft_barrier();

    for (int m = 0; m < BLOCK_SIZE; m++) {
        if (tx <= m) {
            int t_index_x = tx + 1;
            int t_index_y = m - tx + 1;
            temp[t_index_y][t_index_x] =
                maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                        temp[t_index_y][t_index_x - 1] - penalty,
                        temp[t_index_y - 1][t_index_x] - penalty);
        }
        weft_barrier();
    }

    for (int m = BLOCK_SIZE - 2; m >= 0; m--) {
        if (tx <= m) {
            int t_index_x = tx + BLOCK_SIZE - m;
            int t_index_y = BLOCK_SIZE - tx;
            temp[t_index_y][t_index_x] =
                maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                        temp[t_index_y][t_index_x - 1] - penalty,
                        temp[t_index_y - 1][t_index_x] - penalty);
        }
        weft_barrier();
    }

    for (int ty = 0; ty < BLOCK_SIZE; ty++)
        matrix_cuda[index + ty * cols] = temp[ty + 1][tx + 1];
}
