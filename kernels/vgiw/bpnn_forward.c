/* bpnn_forward: Rodinia's back-propagation, its kernel bpnn_layerforward_CUDA (VGIW paper
 * Table 2's BPNN layerforward, 20 basic blocks): the input layer's contribution to the
 * hidden layer, one CTA of 16 x 16 threads per 16 input units. Thread (tx, ty) loads its
 * weight into a WEFT_SHARED matrix, scales it by its input unit (which the threads of
 * column 0 load), then the CTA sums each column in a tree of log2(16) = 4 steps (thread
 * ty adds row ty + 2^(i-1) when ty is a multiple of 2^i: divergent by thread index), a
 * barrier after each; the scaled weights go back to memory and the threads of column 0
 * write the CTA's 16 partial sums. Input: Rodinia's run (`backprop 65536`) has 65 536
 * input units; here 16 384 (a stated scaling, as bpnn_adjust.c: 1 024 CTAs of 256
 * threads). Inputs and weights from a seeded LCG (Rodinia's bpnn_randomize_weights draws
 * them at random too). Rodinia's grid is (1, in / 16): CTA c is blockIdx.y = c, its
 * thread k threadIdx (k % 16, k / 16); `__log2f(HEIGHT)` and `__powf(2, i)` are the
 * integers they compute. The kernel's arguments (in, hid) are globals; expected_weights
 * and expected_partial_sum are the kernel's work done serially in its order, which the
 * tests compare. */
#include "weft.h"

#define HEIGHT 16
#define WIDTH 16
#define HID 16
#define IN 16384
#define STEPS 4 /* log2(HEIGHT) */
WEFT_LAUNCH(IN / HEIGHT * HEIGHT * WIDTH, HEIGHT * WIDTH);

#define WEIGHTS ((IN + 1) * (HID + 1))
float input_units[IN + 1];
float weights[WEIGHTS] __attribute__((aligned(128)));
float partial_sum[IN / HEIGHT * HID];
float expected_weights[WEIGHTS], expected_partial_sum[IN / HEIGHT * HID];
/* layerforward's arguments. */
int32_t in, hid;

WEFT_SHARED float input_node[HEIGHT];
WEFT_SHARED float weight_matrix[HEIGHT][WIDTH];

void weft_setup(void) {
    uint32_t s = 16384;
#define UNIFORM() (s = s * 1664525u + 1013904223u, (float)(s >> 8) / 16777216.0f)
    for (int i = 0; i <= IN; i++) input_units[i] = UNIFORM();
    for (int i = 0; i < WEIGHTS; i++) weights[i] = expected_weights[i] = UNIFORM() - 0.5f;
    in = IN;
    hid = HID;
    /* The serial reference: each CTA's matrix scaled, summed by the same tree. */
    static float w[HEIGHT][WIDTH];
    for (int by = 0; by < IN / HEIGHT; by++) {
        for (int ty = 0; ty < HEIGHT; ty++)
            for (int tx = 0; tx < WIDTH; tx++) {
                int index = (HID + 1) * HEIGHT * by + (HID + 1) * ty + tx + 1 + (HID + 1);
                float x = expected_weights[index];
                w[ty][tx] = x * input_units[HEIGHT * by + ty + 1];
            }
        for (int i = 1; i <= STEPS; i++) {
            int power_two = 1 << i;
            for (int ty = 0; ty < HEIGHT; ty++)
                if (ty % power_two == 0)
                    for (int tx = 0; tx < WIDTH; tx++) w[ty][tx] = w[ty][tx] + w[ty + power_two / 2][tx];
        }
        for (int ty = 0; ty < HEIGHT; ty++)
            for (int tx = 0; tx < WIDTH; tx++)
                expected_weights[(HID + 1) * HEIGHT * by + (HID + 1) * ty + tx + 1 + (HID + 1)] = w[ty][tx];
        for (int ty = 0; ty < HID; ty++) expected_partial_sum[by * HID + ty] = w[0][ty];
    }
}

/* Rodinia's bpnn_layerforward_CUDA. */
void weft_kernel(void) {
    int by = (int)weft_ctaid();
    int tx = (int)(weft_tid() % WIDTH);
    int ty = (int)(weft_tid() / WIDTH % HEIGHT);

    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_in = HEIGHT * by + ty + 1;

    if (tx == 0) input_node[ty] = input_units[index_in];
    weft_barrier();

    weight_matrix[ty][tx] = weights[index];
    weft_barrier();

    weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
    weft_barrier();

    for (int i = 1; i <= STEPS; i++) {
        int power_two = 1 << i;
        if (ty % power_two == 0) weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two / 2][tx];
        weft_barrier();
    }

    weights[index] = weight_matrix[ty][tx];
    weft_barrier();

    if (tx == 0) partial_sum[by * hid + ty] = weight_matrix[tx][ty];
}
