/* needleman: Needleman-Wunsch global alignment of two DNA sequences of 1024 bases (LWM
 * Table 2's needleman, after Rodinia's nw). One CTA of 1024 threads sweeps the score
 * matrix by anti-diagonals, thread t owning column t + 1, with weft_barrier after each
 * diagonal: a cell is the best of its diagonal neighbour plus the match score and its
 * upper and left neighbours minus the gap penalty. The matrix is stored by diagonal
 * (row d = i + j), so a warp's three neighbour loads are coalesced. Sequences from a
 * seeded LCG; weft_setup also fills the matrix serially into expected_score, which the
 * tests compare with score. */
#include "weft.h"

#define L 1024
#define GAP 4
WEFT_LAUNCH(L, L);

uint8_t seq_a[L + 1], seq_b[L + 1];
int16_t score[2 * L + 1][L + 1] __attribute__((aligned(128)));
int16_t expected_score[2 * L + 1][L + 1] __attribute__((aligned(128)));

static const int8_t similarity[4][4] = {
    {5, -3, -2, -3}, {-3, 5, -3, -2}, {-2, -3, 5, -3}, {-3, -2, -3, 5}};

static int16_t best(int a, int b, int c) {
    int m = a > b ? a : b;
    return (int16_t)(m > c ? m : c);
}

void weft_setup(void) {
    uint32_t s = 1618;
    for (int i = 1; i <= L; i++) {
        s = s * 1664525u + 1013904223u;
        seq_a[i] = (uint8_t)(s >> 30);
        s = s * 1664525u + 1013904223u;
        seq_b[i] = (uint8_t)(s >> 30);
    }
    /* Borders: row 0 and column 0, in both matrices. */
    for (int k = 0; k <= L; k++) {
        score[k][k] = expected_score[k][k] = (int16_t)(-GAP * k); /* i = 0, j = k */
        score[k][0] = expected_score[k][0] = (int16_t)(-GAP * k); /* i = k, j = 0 */
    }
    for (int i = 1; i <= L; i++)
        for (int j = 1; j <= L; j++) {
            int d = i + j;
            expected_score[d][j] = best(
                expected_score[d - 2][j - 1] + similarity[seq_a[i]][seq_b[j]],
                expected_score[d - 1][j] - GAP, expected_score[d - 1][j - 1] - GAP);
        }
}

void weft_kernel(void) {
    int j = (int)weft_tid() + 1;
    int b = seq_b[j];
    for (int d = 2; d <= 2 * L; d++) {
        int i = d - j;
        if (i >= 1 && i <= L)
            score[d][j] = best(score[d - 2][j - 1] + similarity[seq_a[i]][b],
                               score[d - 1][j] - GAP, score[d - 1][j - 1] - GAP);
        weft_barrier();
    }
}
