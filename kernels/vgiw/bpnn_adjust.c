/* bpnn_adjust: Rodinia's back-propagation, its kernel bpnn_adjust_weights_cuda (VGIW paper
 * Table 2's BPNN adjust_weights, 3 basic blocks): one thread per weight between the input
 * and the hidden layer (16 hidden units plus the bias, CTAs of 16 x 16 threads, one per
 * 16 input units), each adding eta delta ly + momentum oldw to its weight and keeping the
 * step in oldw; after the barrier the threads of the first row of the first CTA do the
 * same for the bias weights. Input: Rodinia's run (`backprop 65536`) has 65 536 input
 * units; here 16 384 (a stated scaling: 1 024 CTAs of 256 threads, each thread's work
 * the same). delta, ly, w and oldw from a seeded LCG (Rodinia's are the forward pass's
 * and bpnn_randomize_weights' values; the values do not change the control flow).
 * Rodinia's grid is (1, in / 16): CTA c is blockIdx.y = c, its thread k threadIdx
 * (k % 16, k / 16). The kernel's arguments (hid, in) are globals; expected_w and
 * expected_oldw are the update computed serially, which the tests compare. */
#include "weft.h"

#define HEIGHT 16
#define WIDTH 16
#define HID 16
#define IN 16384
#define ETA 0.3f
#define MOMENTUM 0.3f
WEFT_LAUNCH(IN / HEIGHT * HEIGHT * WIDTH, HEIGHT * WIDTH);

#define WEIGHTS ((IN + 1) * (HID + 1))
float delta[HID + 1], ly[IN + 1];
float w[WEIGHTS] __attribute__((aligned(128)));
float oldw[WEIGHTS] __attribute__((aligned(128)));
float expected_w[WEIGHTS], expected_oldw[WEIGHTS];
/* adjust_weights' arguments. */
int32_t hid, in;

/* The kernel's two updates, written as it writes them (so that clang contracts them
 * alike). */
static void update(float *wt, float *old, int index, float d, float l) {
    wt[index] += ((ETA * d * l) + (MOMENTUM * old[index]));
    old[index] = ((ETA * d * l) + (MOMENTUM * old[index]));
}

static void update_bias(float *wt, float *old, int index, float d) {
    wt[index] += ((ETA * d) + (MOMENTUM * old[index]));
    old[index] = ((ETA * d) + (MOMENTUM * old[index]));
}

void weft_setup(void) {
    uint32_t s = 65536;
#define UNIFORM() (s = s * 1664525u + 1013904223u, (float)(s >> 8) / 16777216.0f)
    for (int i = 0; i <= HID; i++) delta[i] = UNIFORM() - 0.5f;
    for (int i = 0; i <= IN; i++) ly[i] = UNIFORM();
    for (int i = 0; i < WEIGHTS; i++) {
        w[i] = expected_w[i] = UNIFORM() - 0.5f;
        oldw[i] = expected_oldw[i] = UNIFORM() - 0.5f;
    }
    hid = HID;
    in = IN;
    /* The serial reference, in the kernel's order (the bias row last). */
    for (int by = 0; by < IN / HEIGHT; by++)
        for (int ty = 0; ty < HEIGHT; ty++)
            for (int tx = 0; tx < WIDTH; tx++) {
                int index = (HID + 1) * HEIGHT * by + (HID + 1) * ty + tx + 1 + (HID + 1);
                update(expected_w, expected_oldw, index, delta[tx + 1], ly[HEIGHT * by + ty + 1]);
            }
    for (int tx = 0; tx < WIDTH; tx++) update_bias(expected_w, expected_oldw, tx + 1, delta[tx + 1]);
}

/* Rodinia's bpnn_adjust_weights_cuda. */
void weft_kernel(void) {
    int by = (int)weft_ctaid();
    int tx = (int)(weft_tid() % WIDTH);
    int ty = (int)(weft_tid() / WIDTH % HEIGHT);

    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_y = HEIGHT * by + ty + 1;
    int index_x = tx + 1;

    w[index] += ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
    oldw[index] = ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));

    weft_barrier();

    if (ty == 0 && by == 0) {
        w[index_x] += ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
        oldw[index_x] = ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
    }
}
