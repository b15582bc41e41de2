/* hotspot: Rodinia's HOTSPOT calculate_temp (the VGIW paper's Table 2 hotspot_kernel, 27
 * basic blocks): the transient thermal simulation of a chip, a 5-point stencil over a
 * grid of temperatures with each cell's power, tiled with Rodinia's pyramid. A CTA of
 * 16 x 16 threads (thread (tx, ty) = tid % 16, tid / 16 % 16) loads a 16 x 16 tile of
 * temperatures and powers into WEFT_SHARED arrays, then runs `iteration` time steps in
 * shared memory, each a barrier apart: in step i the threads inside the tile's ring i + 1
 * and inside the grid compute (IN_RANGE predicates on the thread index, so warps
 * diverge at the tile's edges and at the grid's), the others idle; neighbours outside the
 * grid are clamped to the cell itself. After `iteration` steps only the inner 12 x 12
 * cells are exact, so tiles overlap by 2 cells on every side (Rodinia's border) and each
 * CTA writes its inner cells to the destination grid.
 * Launch: Rodinia's run script computes a 512 x 512 grid with pyramid_height 2 and
 * sim_time 2, one launch of 43 x 43 CTAs; here a 128 x 128 grid (11 x 11 CTAs of 256,
 * 30 976 threads), the same single launch of 2 steps: the 512 grid would be 15 times the
 * work (about 110 M thread instructions). Rodinia's kernel arguments (iteration, the
 * grid's size and border, Cap, Rx, Ry, Rz, step) are globals written by weft_setup, so the
 * kernel reads them as CUDA reads its parameters; its `2.0 *` (a double in CUDA) is a
 * float here. Temperatures (323-343 K) and powers (up to 0.01 W) from a seeded LCG
 * (Rodinia reads temp_512 and power_512); weft_setup also runs the 2 steps serially on
 * the whole grid into expected_temp_dst, which the tests compare with temp_dst. */
#include "weft.h"

#define BLOCK_SIZE 16
#define GRID 128         /* grid_rows = grid_cols */
#define PYRAMID_HEIGHT 2 /* Rodinia's pyramid_height: time steps per launch */
#define EXPAND_RATE 2
#define SMALL_BLOCK (BLOCK_SIZE - PYRAMID_HEIGHT * EXPAND_RATE)
#define BLOCK_COLS ((GRID + SMALL_BLOCK - 1) / SMALL_BLOCK) /* 11 */
#define CELLS (GRID * GRID)
WEFT_LAUNCH(BLOCK_COLS * BLOCK_COLS * BLOCK_SIZE * BLOCK_SIZE, BLOCK_SIZE * BLOCK_SIZE);

float power[CELLS] __attribute__((aligned(128)));
float temp_src[CELLS] __attribute__((aligned(128)));
float temp_dst[CELLS] __attribute__((aligned(128)));
float expected_temp_dst[CELLS];
float scratch[CELLS]; /* the serial reference's intermediate step */

/* calculate_temp's arguments. */
int32_t iteration, grid_cols, grid_rows, border_cols, border_rows;
float Cap, Rx, Ry, Rz, step;

WEFT_SHARED float temp_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
WEFT_SHARED float power_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
WEFT_SHARED float temp_t[BLOCK_SIZE][BLOCK_SIZE];

#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))

/* Rodinia's constants (hotspot.cu). */
#define MAX_PD 3.0e6f
#define PRECISION 0.001f
#define SPEC_HEAT_SI 1.75e6f
#define K_SI 100.0f
#define FACTOR_CHIP 0.5f
#define T_CHIP 0.0005f
#define CHIP_HEIGHT 0.016f
#define CHIP_WIDTH 0.016f
#define AMB_TEMP 80.0f

/* One cell's new temperature, written as calculate_temp writes it. */
static float update(float here, float p, float n, float s, float e, float w, float step_div_Cap,
                    float Rx_1, float Ry_1, float Rz_1) {
    return here + step_div_Cap * (p + (s + n - 2.0f * here) * Ry_1 + (e + w - 2.0f * here) * Rx_1 +
                                  (AMB_TEMP - here) * Rz_1);
}

void weft_setup(void) {
    /* compute_tran_temp's arguments. */
    float grid_height = CHIP_HEIGHT / GRID, grid_width = CHIP_WIDTH / GRID;
    Cap = FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * grid_width * grid_height;
    Rx = grid_width / (2.0f * K_SI * T_CHIP * grid_height);
    Ry = grid_height / (2.0f * K_SI * T_CHIP * grid_width);
    Rz = T_CHIP / (K_SI * grid_height * grid_width);
    float max_slope = MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI);
    step = PRECISION / max_slope;
    iteration = PYRAMID_HEIGHT;
    grid_cols = grid_rows = GRID;
    border_cols = border_rows = PYRAMID_HEIGHT * EXPAND_RATE / 2;

    uint32_t s = 2015;
    for (int i = 0; i < CELLS; i++) {
        s = s * 1664525u + 1013904223u;
        temp_src[i] = 323.0f + (float)(s >> 16) / 65536.0f * 20.0f;
        s = s * 1664525u + 1013904223u;
        power[i] = (float)(s >> 16) / 65536.0f * 0.01f;
    }

    /* The serial reference: PYRAMID_HEIGHT steps over the whole grid, a missing
     * neighbour clamped to the cell itself, with the kernel's reciprocals. */
    float step_div_Cap = step / Cap, Rx_1 = 1 / Rx, Ry_1 = 1 / Ry, Rz_1 = 1 / Rz;
    const float *from = temp_src;
    for (int k = 0; k < PYRAMID_HEIGHT; k++) {
        /* Ping-pong so that the last step lands in expected_temp_dst. */
        float *to = (PYRAMID_HEIGHT - 1 - k) % 2 ? scratch : expected_temp_dst;
        for (int r = 0; r < GRID; r++)
            for (int c = 0; c < GRID; c++) {
                int i = r * GRID + c;
                float here = from[i];
                float n = r > 0 ? from[i - GRID] : here;
                float so = r < GRID - 1 ? from[i + GRID] : here;
                float w = c > 0 ? from[i - 1] : here, e = c < GRID - 1 ? from[i + 1] : here;
                to[i] = update(here, power[i], n, so, e, w, step_div_Cap, Rx_1, Ry_1, Rz_1);
            }
        from = to;
    }
}

void weft_kernel(void) {
    float step_div_Cap, Rx_1, Ry_1, Rz_1;
    uint32_t local = weft_tid() % (BLOCK_SIZE * BLOCK_SIZE);
    int bx = (int)(weft_ctaid() % BLOCK_COLS), by = (int)(weft_ctaid() / BLOCK_COLS);
    int tx = (int)(local % BLOCK_SIZE), ty = (int)(local / BLOCK_SIZE);

    step_div_Cap = step / Cap;
    Rx_1 = 1 / Rx;
    Ry_1 = 1 / Ry;
    Rz_1 = 1 / Rz;

    /* The tile's corner: small blocks tile the grid, tiles overlap them by the border. */
    int small_block_rows = BLOCK_SIZE - iteration * 2;
    int small_block_cols = BLOCK_SIZE - iteration * 2;
    int blkY = small_block_rows * by - border_rows;
    int blkX = small_block_cols * bx - border_cols;
    int blkYmax = blkY + BLOCK_SIZE - 1;
    int blkXmax = blkX + BLOCK_SIZE - 1;
    int yidx = blkY + ty;
    int xidx = blkX + tx;
    int loadYidx = yidx, loadXidx = xidx;
    int index = grid_cols * loadYidx + loadXidx;

    if (IN_RANGE(loadYidx, 0, grid_rows - 1) && IN_RANGE(loadXidx, 0, grid_cols - 1)) {
        temp_on_cuda[ty][tx] = temp_src[index];
        power_on_cuda[ty][tx] = power[index];
    }
    weft_barrier();

    /* The part of the tile inside the grid. */
    int validYmin = (blkY < 0) ? -blkY : 0;
    int validYmax = (blkYmax > grid_rows - 1) ? BLOCK_SIZE - 1 - (blkYmax - grid_rows + 1)
                                              : BLOCK_SIZE - 1;
    int validXmin = (blkX < 0) ? -blkX : 0;
    int validXmax = (blkXmax > grid_cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - grid_cols + 1)
                                              : BLOCK_SIZE - 1;

    int N = ty - 1;
    int S = ty + 1;
    int W = tx - 1;
    int E = tx + 1;
    N = (N < validYmin) ? validYmin : N;
    S = (S > validYmax) ? validYmax : S;
    W = (W < validXmin) ? validXmin : W;
    E = (E > validXmax) ? validXmax : E;

    int computed = 0;
    for (int i = 0; i < iteration; i++) {
        computed = 0;
        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && IN_RANGE(ty, i + 1, BLOCK_SIZE - i - 2) &&
            IN_RANGE(tx, validXmin, validXmax) && IN_RANGE(ty, validYmin, validYmax)) {
            computed = 1;
            temp_t[ty][tx] = update(temp_on_cuda[ty][tx], power_on_cuda[ty][tx],
                                    temp_on_cuda[N][tx], temp_on_cuda[S][tx], temp_on_cuda[ty][E],
                                    temp_on_cuda[ty][W], step_div_Cap, Rx_1, Ry_1, Rz_1);
        }
        weft_barrier();
        if (i == iteration - 1) break;
        if (computed) temp_on_cuda[ty][tx] = temp_t[ty][tx];
        weft_barrier();
    }

    /* After the last step only the small block's threads have computed. */
    if (computed) temp_dst[index] = temp_t[ty][tx];
}
