/* gaussian_fan1: Rodinia's Gaussian elimination, its kernel Fan1 (VGIW paper Table 2's GE
 * Fan1, 2 basic blocks): at step t, thread i below the pivot row computes the multiplier
 * of row t + 1 + i, `m[(t+1+i) Size + t] = a[(t+1+i) Size + t] / a[t Size + t]`; threads
 * past the last row return at once (the guard diverges in the last CTA). Rodinia's host
 * launches Fan1 then Fan2 once per step t = 0 .. Size - 2; here the first step (t = 0,
 * the most rows). The matrix is Rodinia's create_matrix (its `-s` option): a[i][j] =
 * 10 e^(-0.01 |i - j|), the powers of e^-0.01 (a float literal here) by repeated
 * multiplication, as setups may not call exp. Size 512 (chosen: Rodinia's `-s` sets it;
 * Fan2's launch at this size holds 261 632 threads, and Fan1's one column 511).
 * CTAs of 512 (Rodinia's MAXBLOCKSIZE); the kernel's arguments (Size, t) are globals. */
#include "weft.h"

#define SIZE 512
#define CTA 512
#define STEP 0
WEFT_LAUNCH((SIZE - 1 - STEP + CTA - 1) / CTA * CTA, CTA);

float a[SIZE * SIZE] __attribute__((aligned(128)));
float m[SIZE * SIZE] __attribute__((aligned(128)));
/* Fan1's arguments. */
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
    size_arg = SIZE;
    t_arg = STEP;
}

/* Rodinia's Fan1 (blockDim.x * blockIdx.x + threadIdx.x is weft_tid()). */
void weft_kernel(void) {
    int Size = size_arg, t = t_arg;
    int i = (int)weft_tid();
    if (i >= Size - 1 - t) return;
    m[Size * (i + t + 1) + t] = a[Size * (i + t + 1) + t] / a[Size * t + t];
}
