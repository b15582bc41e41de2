/* hotspot: transient thermal simulation of a chip (LWM Table 2's hotspot, after
 * Rodinia's): a 128 x 128 grid of temperatures advanced 4 time steps, each cell from its
 * power and its four neighbours (a 5-point stencil; a border cell uses itself for a
 * missing neighbour), with Rodinia's constants. One CTA of 1024 threads owns 16 cells
 * each (cell k*1024 + t, so a warp reads whole rows: coalesced), ping-pong buffers and
 * weft_barrier between steps. Power and initial temperatures from a seeded LCG;
 * weft_setup also runs the steps serially into expected_temp, which the tests compare
 * with temp. */
#include "weft.h"

#define N 1024
#define SIDE 128
#define CELLS (SIDE * SIDE)
#define STEPS 4
WEFT_LAUNCH(N, N);

float temp[CELLS] __attribute__((aligned(128)));
float buffer[CELLS] __attribute__((aligned(128)));
float power[CELLS] __attribute__((aligned(128)));
float expected_temp[CELLS], expected_buffer[CELLS];

/* Rodinia's chip: 0.016 m side, 0.5 mm thick, its capacitance and resistances. */
#define CHIP 0.016f
#define HEIGHT (CHIP / SIDE)
#define THICK 0.0005f
#define CAP (0.5f * 1.75e6f * THICK * HEIGHT * HEIGHT)
#define RX (HEIGHT / (2.0f * 100.0f * THICK * HEIGHT))
#define RY (HEIGHT / (2.0f * 100.0f * THICK * HEIGHT))
#define RZ (THICK / (100.0f * HEIGHT * HEIGHT))
#define MAX_SLOPE (3.0e6f / (0.5f * THICK * 1.75e6f))
#define STEP (0.001f / MAX_SLOPE)
#define AMB 80.0f

static float cell(const float *t, const float *p, int i) {
    int r = i / SIDE, c = i % SIDE;
    float here = t[i];
    float n = r > 0 ? t[i - SIDE] : here, s = r < SIDE - 1 ? t[i + SIDE] : here;
    float w = c > 0 ? t[i - 1] : here, e = c < SIDE - 1 ? t[i + 1] : here;
    float delta = (STEP / CAP) * (p[i] + (s + n - 2.0f * here) / RY + (e + w - 2.0f * here) / RX +
                                  (AMB - here) / RZ);
    return here + delta;
}

void weft_setup(void) {
    uint32_t s = 8086;
    for (int i = 0; i < CELLS; i++) {
        s = s * 1664525u + 1013904223u;
        temp[i] = expected_temp[i] = 320.0f + (float)(s >> 16) / 65536.0f * 20.0f;
        s = s * 1664525u + 1013904223u;
        power[i] = (float)(s >> 16) / 65536.0f * 0.002f;
    }
    for (int step = 0; step < STEPS; step++) {
        const float *from = step % 2 ? expected_buffer : expected_temp;
        float *to = step % 2 ? expected_temp : expected_buffer;
        for (int i = 0; i < CELLS; i++) to[i] = cell(from, power, i);
    }
}

void weft_kernel(void) {
    uint32_t tid = weft_tid();
    for (int step = 0; step < STEPS; step++) {
        const float *from = step % 2 ? buffer : temp;
        float *to = step % 2 ? temp : buffer;
        for (int i = (int)tid; i < CELLS; i += N) to[i] = cell(from, power, i);
        weft_barrier();
    }
}
