/* gaussian_fan2: Rodinia's Gaussian elimination, its kernel Fan2 (VGIW paper Table 2's GE
 * Fan2, 5 basic blocks): at step t, thread (x, y) of the 2-D grid subtracts the multiple
 * of pivot row t from element (t + 1 + x, t + y), `a[..] -= m[(t+1+x) Size + t] *
 * a[t Size + t + y]`, and the threads of column y = 0 update the right-hand side b the
 * same way; threads past the last row or column return (two guards, divergent in the last
 * CTAs). Rodinia launches Fan1 then Fan2 once per step; here Fan2 of the first step
 * (t = 0), after Fan1's multipliers (computed in weft_setup as gaussian_fan1.c's kernel
 * does). The matrix as gaussian_fan1.c (Rodinia's create_matrix), b all 1 (Rodinia's).
 * Size 512 (chosen, as gaussian_fan1.c). Rodinia's 4 x 4 CTAs (BLOCK_SIZE_XY) over a
 * 128 x 128 grid of CTAs: CTA c is blockIdx (c % 128, c / 128), its thread k threadIdx
 * (k % 4, k / 4). The kernel's arguments (Size, t) are globals. */
#include "weft.h"

#define SIZE 512
#define XY 4
#define GRID (SIZE / XY)
#define STEP 0
WEFT_LAUNCH(GRID * GRID * XY * XY, XY * XY);

float a[SIZE * SIZE] __attribute__((aligned(128)));
float m[SIZE * SIZE] __attribute__((aligned(128)));
float b[SIZE];
/* Fan2's arguments. */
int32_t size_arg, t_arg;

void weft_setup(void) {
    static float coe[2 * SIZE - 1];
    float c = 10.0f;
    for (int i = 0; i < SIZE; i++) {
        coe[SIZE - 1 + i] = c;
        coe[SIZE - 1 - i] = c;
        c *= 0.99004983f; /* e^-0.01 */
    }
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++) a[i * SIZE + j] = coe[SIZE - 1 - i + j];
    for (int i = 0; i < SIZE; i++) b[i] = 1.0f;
    /* Fan1 at this step. */
    for (int i = 0; i < SIZE - 1 - STEP; i++)
        m[SIZE * (i + STEP + 1) + STEP] = a[SIZE * (i + STEP + 1) + STEP] / a[SIZE * STEP + STEP];
    size_arg = SIZE;
    t_arg = STEP;
}

/* Rodinia's Fan2. */
void weft_kernel(void) {
    int Size = size_arg, t = t_arg;
    uint32_t cta = weft_ctaid(), k = weft_tid() % (XY * XY);
    int xidx = (int)(cta % GRID) * XY + (int)(k % XY);
    int yidx = (int)(cta / GRID) * XY + (int)(k / XY);
    if (xidx >= Size - 1 - t) return;
    if (yidx >= Size - t) return;
    a[Size * (xidx + 1 + t) + (yidx + t)] -= m[Size * (xidx + 1 + t) + t] * a[Size * t + (yidx + t)];
    if (yidx == 0) b[xidx + 1 + t] -= m[Size * (xidx + 1 + t) + (yidx + t)] * b[t];
}
