/* gf_padded: kernels/dom/gf.c with rows PITCH = W + 32 bytes apart instead of W = 2048: a
 * row starts 65 lines after the one above, so a tile's 34 rows fall in 34 different sets
 * of the 32 KB 4-way L1 (at 2048 bytes, rows r and r + 4 share a set and a warp's rows
 * thrash its 4 ways). The other row layout, to measure what the pitch does.
 * gf: 3x3 Gaussian blur, the GF kernel of the Diverge-on-Miss paper (§7.3.5, Table 3:
 * 8 thread instructions per memory op). "Each warp is assigned an image tile consisting
 * of 32 by 32 pixels, with threads being assigned a single row in the tile. The input is
 * a randomly generated black and white image with 2048 by 2048 pixels."
 * Choices (the paper gives neither pixel format nor pitch nor the border rule):
 *   - one byte per pixel, black 0 or white 255, each pixel a coin flip of an LCG (seed 5)
 *     in weft_setup;
 *   - width and pitch W = 2048 as the paper's, height H = 128 (scaled down from 2048 to keep
 *     the run within 5-40 M thread instructions; the pitch is what sets the cache
 *     behaviour: rows 2 KB apart fall in the same L1 set of a 32 KB 4-way 32 B-line L1
 *     every 4 rows, so a warp's 34 rows thrash the 4 ways and lanes hit and miss apart);
 *   - the image is stored with one halo row above and below (H + 2 rows, halo rows as the
 *     generator makes them), columns clamp at the left and right edge;
 *   - kernel weights 1 2 1 / 2 4 2 / 1 2 1, sum 16, rounded: out = (sum + 8) >> 4;
 *   - CTA = one warp = one 32x32 tile (tile = weft_ctaid(), row-major over the image);
 *     lane t does row t of its tile, its 32 columns left to right, and writes only its
 *     own 32 output bytes.
 * Loads are byte loads, nine per pixel as written (the compiler may keep some in registers
 * from one column to the next; the report counts what the listing runs). */
#include "weft.h"

#define W 2048 /* width, the paper's */
#define PITCH (W + 32) /* bytes between rows */
#define H 128  /* height, scaled down from 2048 */
#define TILE 32
WEFT_LAUNCH((W / TILE) * (H / TILE) * 32, 32); /* 256 CTAs of one warp, one tile each */

uint8_t img[(H + 2) * PITCH] __attribute__((aligned(32)));
uint8_t out[H * W] __attribute__((aligned(32)));

void weft_setup(void) {
    uint32_t s = 5;
    for (uint32_t r = 0; r < H + 2; r++)
        for (uint32_t c = 0; c < PITCH; c++) {
            s = s * 1664525u + 1013904223u;
            img[r * PITCH + c] = (s >> 31) ? 255 : 0; /* columns W.. are never read */
        }
}

void weft_kernel(void) {
    uint32_t t = weft_tid() & 31, tile = weft_ctaid();
    uint32_t r = (tile / (W / TILE)) * TILE + t, c0 = (tile % (W / TILE)) * TILE;
    /* Output row r reads padded rows r, r+1, r+2 (image rows r-1, r, r+1). */
    const uint8_t *a = &img[r * PITCH], *b = a + PITCH, *d = b + PITCH;
    for (uint32_t c = c0; c < c0 + TILE; c++) {
        uint32_t l = c ? c - 1 : 0, h = c + 1 < W ? c + 1 : W - 1;
        uint32_t v = a[l] + 2 * a[c] + a[h] + 2 * (b[l] + 2 * b[c] + b[h]) + d[l] + 2 * d[c] + d[h];
        out[r * W + c] = (uint8_t)((v + 8) >> 4);
    }
}
