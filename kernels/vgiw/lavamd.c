/* lavamd: Rodinia's lavaMD kernel_gpu_cuda (the VGIW paper's Table 2 LAVAMD
 * kernel_gpu_cuda, 21 basic blocks): particles in a 3-D grid of boxes, 100 a box; one
 * CTA of 128 threads per box. The CTA copies its box's particles (position and v) into
 * WEFT_SHARED rA_shared (threads 0-99, in a while loop stepping by the CTA's size); a
 * barrier; then for its own box and each neighbour box (k = 0..nn): the neighbour's
 * particles and charges go to rB_shared / qB_shared, a barrier, each thread with a
 * particle (wtx < 100: 28 threads of the 128 idle) sums over the 100 particles of that
 * box the potential exp(-a2 r2) and the force's three components into its particle's
 * fv in global memory, a barrier.
 * Inputs: Rodinia's run script (lavaMD -boxes1d 10) has 10 x 10 x 10 boxes, 1 000 CTAs;
 * here 2 x 2 x 2 boxes (8 CTAs of 128, 1 024 threads: two thirds of a Fermi SM's
 * 1 536; each box has the 7 others as neighbours where an inner box of Rodinia's grid has
 * 26), the box and neighbour tables built as Rodinia's main builds them, positions and
 * charges (rand() % 10 + 1) / 10 from a seeded LCG, alpha = 0.5 (Rodinia's). Rodinia's
 * fp is double: float here (RV32IMF has no doubles); Rodinia's exp is written out
 * (range reduction to |r| <= ln 2 / 2 and a degree-6 polynomial, times 2^k: the setup
 * may call no libm function). Rodinia's long offsets are int32_t (RV32). weft_setup also
 * computes the serial reference (expected_fv_gpu) in the kernel's order, which the
 * tests compare with fv_gpu. */
#include "weft.h"

#define BOXES1D 2
#define NUMBER_BOXES (BOXES1D * BOXES1D * BOXES1D)
#define NUMBER_PAR_PER_BOX 100
#define NUMBER_THREADS 128
#define SPACE_ELEM (NUMBER_BOXES * NUMBER_PAR_PER_BOX)
WEFT_LAUNCH(NUMBER_BOXES * NUMBER_THREADS, NUMBER_THREADS);

#define DOT(A, B) ((A).x * (B).x + (A).y * (B).y + (A).z * (B).z)

typedef struct {
    float v, x, y, z;
} FOUR_VECTOR;
typedef struct {
    float x, y, z;
} THREE_VECTOR;
typedef struct {
    int32_t x, y, z;
    int32_t number;
    int32_t offset;
} nei_str;
typedef struct {
    int32_t x, y, z;
    int32_t number;
    int32_t offset;
    int32_t nn;
    nei_str nei[26];
} box_str;

box_str box_gpu[NUMBER_BOXES];
FOUR_VECTOR rv_gpu[SPACE_ELEM] __attribute__((aligned(128)));
float qv_gpu[SPACE_ELEM] __attribute__((aligned(128)));
FOUR_VECTOR fv_gpu[SPACE_ELEM] __attribute__((aligned(128)));
FOUR_VECTOR expected_fv_gpu[SPACE_ELEM];

/* kernel_gpu_cuda's arguments (par_str's alpha, dim_str's number_boxes). */
float alpha;
int32_t number_boxes;

WEFT_SHARED FOUR_VECTOR rA_shared[100];
WEFT_SHARED FOUR_VECTOR rB_shared[100];
WEFT_SHARED float qB_shared[100];

static float from_bits(uint32_t b) {
    union {
        uint32_t b;
        float f;
    } u = {b};
    return u.f;
}

/* e^x: x = k ln 2 + r, |r| <= ln 2 / 2, e^r by its Taylor polynomial, times 2^k; 0
 * below -87 (the arguments here are <= 0). */
static float ex(float x) {
    if (x < -87.0f) return 0.0f;
    float kf = x * 1.44269504f;
    int k = (int)(kf < 0.0f ? kf - 0.5f : kf + 0.5f);
    float r = x - (float)k * 0.69314718f;
    float p = 1.0f + r * (1.0f + r * (0.5f + r * (0.16666667f + r * (0.041666667f + r * (0.0083333333f + r * 0.0013888889f)))));
    return p * from_bits((uint32_t)(k + 127) << 23);
}

/* One particle's sums over one box's particles, as a thread of the kernel makes them. */
static void interact(float a2, const FOUR_VECTOR *rA, FOUR_VECTOR *fA, const FOUR_VECTOR *rB,
                     const float *qB) {
    float r2, u2, vij, fs, fxij, fyij, fzij;
    THREE_VECTOR d;
    for (int j = 0; j < NUMBER_PAR_PER_BOX; j++) {
        r2 = rA->v + rB[j].v - DOT(*rA, rB[j]);
        u2 = a2 * r2;
        vij = ex(-u2);
        fs = 2 * vij;
        d.x = rA->x - rB[j].x;
        fxij = fs * d.x;
        d.y = rA->y - rB[j].y;
        fyij = fs * d.y;
        d.z = rA->z - rB[j].z;
        fzij = fs * d.z;
        fA->v += qB[j] * vij;
        fA->x += qB[j] * fxij;
        fA->y += qB[j] * fyij;
        fA->z += qB[j] * fzij;
    }
}

void weft_setup(void) {
    alpha = 0.5f;
    number_boxes = NUMBER_BOXES;
    /* Rodinia's main: boxes in z, y, x order, each with its neighbours in range. */
    int nh = 0;
    for (int i = 0; i < BOXES1D; i++)
        for (int j = 0; j < BOXES1D; j++)
            for (int k = 0; k < BOXES1D; k++) {
                box_str *b = &box_gpu[nh];
                b->x = k;
                b->y = j;
                b->z = i;
                b->number = nh;
                b->offset = nh * NUMBER_PAR_PER_BOX;
                b->nn = 0;
                for (int l = -1; l < 2; l++)
                    for (int m = -1; m < 2; m++)
                        for (int n = -1; n < 2; n++) {
                            if ((i + l >= 0 && j + m >= 0 && k + n >= 0) &&
                                (i + l < BOXES1D && j + m < BOXES1D && k + n < BOXES1D) &&
                                !(l == 0 && m == 0 && n == 0)) {
                                nei_str *e = &b->nei[b->nn];
                                e->x = k + n;
                                e->y = j + m;
                                e->z = i + l;
                                e->number = (e->z * BOXES1D * BOXES1D) + (e->y * BOXES1D) + e->x;
                                e->offset = e->number * NUMBER_PAR_PER_BOX;
                                b->nn++;
                            }
                        }
                nh++;
            }
    uint32_t s = 2010;
#define RAND10() (s = s * 1664525u + 1013904223u, (float)((s >> 16) % 10 + 1) / 10.0f)
    for (int i = 0; i < SPACE_ELEM; i++) {
        rv_gpu[i].v = RAND10();
        rv_gpu[i].x = RAND10();
        rv_gpu[i].y = RAND10();
        rv_gpu[i].z = RAND10();
    }
    for (int i = 0; i < SPACE_ELEM; i++) qv_gpu[i] = RAND10();
#undef RAND10
    /* The serial reference: each particle over its box, then each neighbour, in order. */
    float a2 = 2.0f * alpha * alpha;
    for (int bx = 0; bx < NUMBER_BOXES; bx++)
        for (int k = 0; k < 1 + box_gpu[bx].nn; k++) {
            int pointer = k == 0 ? bx : box_gpu[bx].nei[k - 1].number;
            int first_j = box_gpu[pointer].offset, first_i = box_gpu[bx].offset;
            for (int w = 0; w < NUMBER_PAR_PER_BOX; w++)
                interact(a2, &rv_gpu[first_i + w], &expected_fv_gpu[first_i + w],
                         &rv_gpu[first_j], &qv_gpu[first_j]);
        }
}

void weft_kernel(void) {
    int bx = (int)weft_ctaid();
    int tx = (int)(weft_tid() % NUMBER_THREADS);
    int wtx = tx;

    if (bx < number_boxes) {
        float a2 = 2.0f * alpha * alpha;
        int first_i = box_gpu[bx].offset;
        FOUR_VECTOR *rA = &rv_gpu[first_i];
        FOUR_VECTOR *fA = &fv_gpu[first_i];
        while (wtx < NUMBER_PAR_PER_BOX) {
            rA_shared[wtx] = rA[wtx];
            wtx = wtx + NUMBER_THREADS;
        }
        wtx = tx;
        weft_barrier();

        for (int k = 0; k < (1 + box_gpu[bx].nn); k++) {
            int pointer = k == 0 ? bx : box_gpu[bx].nei[k - 1].number;
            int first_j = box_gpu[pointer].offset;
            FOUR_VECTOR *rB = &rv_gpu[first_j];
            float *qB = &qv_gpu[first_j];
            while (wtx < NUMBER_PAR_PER_BOX) {
                rB_shared[wtx] = rB[wtx];
                qB_shared[wtx] = qB[wtx];
                wtx = wtx + NUMBER_THREADS;
            }
            wtx = tx;
            weft_barrier();
            while (wtx < NUMBER_PAR_PER_BOX) {
                interact(a2, &rA_shared[wtx], &fA[wtx], rB_shared, qB_shared);
                wtx = wtx + NUMBER_THREADS;
            }
            wtx = tx;
            weft_barrier();
        }
    }
}
