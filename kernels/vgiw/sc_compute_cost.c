/* sc_compute_cost: Rodinia's streamcluster kernel_compute_cost (the VGIW paper's Table 2 SM
 * streamcluster_kernel_compute_cost, 6 basic blocks), in the form with the candidate's
 * coordinates in shared memory (Rodinia 2.x's pgain kernel: `extern __shared__ float
 * coord_s[]`): thread 0 of each CTA copies the coordinates of the candidate centre x
 * into a WEFT_SHARED array (a loop over the dimensions); a barrier; each thread (one
 * per point) takes its point's squared distance to x (d_dist: a loop over the
 * dimensions, the point's coordinates dimension-major, coord_d[i * num + p], so a warp's
 * loads are coalesced) times its weight; if that is below the point's current cost the
 * point is marked to switch (switch_membership) and the saving goes to lower[K], else
 * the loss goes to the slot of the point's current centre (lower[center_table[assign]]),
 * in its row of work_mem (K + 1 floats a point).
 * Inputs: Rodinia's run script (sc_gpu 10 20 256 65536 65536 1000 ...) clusters 65 536
 * points of 256 dimensions in CTAs of 512 (THREADS_PER_BLOCK); here 4 096 points of 256
 * dimensions (8 CTAs of 512: 4 096 threads, 2.7 Fermi SMs' worth, the whole input 4 MB
 * where Rodinia's is 64 MB), K = 10 open centres (between k1 = 10 and k2 = 20), each
 * point assigned to one of them with its cost (weight x squared distance) as the
 * serial code leaves it; coordinates and weights from a seeded LCG. Rodinia's Point
 * holds a pointer (which the kernel does not read) and a long: both int32_t here, so
 * Point is 16 bytes on RV32 and on the native host alike (32 on Rodinia's 64-bit host).
 * bool is uint8_t. weft_setup also computes the serial references (expected_*) in the
 * kernel's order, which the tests compare with the outputs. */
#include "weft.h"

#define NUM 4096
#define DIM 256
#define K_ 10
#define THREADS_PER_BLOCK 512
WEFT_LAUNCH(NUM, THREADS_PER_BLOCK);

typedef struct {
    float weight;
    int32_t coord;  /* Rodinia's coordinates pointer: the point's column of coord_d */
    int32_t assign; /* Rodinia's long: the index of the point that is its centre */
    float cost;
} Point;

float coord_d[DIM * NUM] __attribute__((aligned(128)));
Point p[NUM] __attribute__((aligned(128)));
int32_t center_table_d[NUM];
float work_mem_d[NUM * (K_ + 1)] __attribute__((aligned(128)));
uint8_t switch_membership_d[NUM] __attribute__((aligned(128)));
float expected_work_mem_d[NUM * (K_ + 1)];
uint8_t expected_switch_membership_d[NUM];

/* kernel_compute_cost's arguments. */
int32_t num, dim, x, K;

WEFT_SHARED float coord_s[DIM];

/* Rodinia's d_dist: the squared distance of point p1 to the coordinates in coord_s. */
static float d_dist(int p1, int n, int d, const float *c_s, const float *c_d) {
    float retval = 0.0f;
    for (int i = 0; i < d; i++) {
        float tmp = c_s[i] - c_d[(i * n) + p1];
        retval += tmp * tmp;
    }
    return retval;
}

void weft_setup(void) {
    num = NUM;
    dim = DIM;
    K = K_;
    uint32_t s = 2009;
#define NEXT() (s = s * 1664525u + 1013904223u, (float)(s >> 8) / 16777216.0f)
    for (int i = 0; i < DIM * NUM; i++) coord_d[i] = NEXT();
    /* The open centres: K points, centre k at point 37 k + 5. */
    for (int k = 0; k < K_; k++) center_table_d[37 * k + 5] = k;
    float centre[DIM];
    for (int i = 0; i < NUM; i++) {
        p[i].weight = 1.0f + (float)(int)(NEXT() * 4.0f);
        p[i].coord = i;
        s = s * 1664525u + 1013904223u;
        p[i].assign = 37 * (int32_t)((s >> 8) % K_) + 5;
        for (int j = 0; j < DIM; j++) centre[j] = coord_d[j * NUM + p[i].assign];
        p[i].cost = d_dist(i, NUM, DIM, centre, coord_d) * p[i].weight;
    }
    x = 2024; /* the candidate centre */
    /* The serial references, each point as its thread computes it. */
    for (int j = 0; j < DIM; j++) centre[j] = coord_d[j * NUM + x];
    for (int t = 0; t < NUM; t++) {
        float x_cost = d_dist(t, NUM, DIM, centre, coord_d) * p[t].weight;
        float *lower = &expected_work_mem_d[t * (K_ + 1)];
        if (x_cost < p[t].cost) {
            expected_switch_membership_d[t] = 1;
            lower[K_] += x_cost - p[t].cost;
        } else {
            int assign = p[t].assign;
            lower[center_table_d[assign]] += p[t].cost - x_cost;
        }
    }
#undef NEXT
}

void weft_kernel(void) {
    const int thread_id = (int)weft_tid();
    const int tx = (int)(weft_tid() % weft_cta_size());

    if (tx == 0)
        for (int i = 0; i < dim; i++) coord_s[i] = coord_d[i * num + x];
    weft_barrier();

    if (thread_id < num) {
        float x_cost = d_dist(thread_id, num, dim, coord_s, coord_d) * p[thread_id].weight;
        float *lower = &work_mem_d[thread_id * (K + 1)];
        if (x_cost < p[thread_id].cost) {
            switch_membership_d[thread_id] = 1;
            lower[K] += x_cost - p[thread_id].cost;
        } else {
            int assign = p[thread_id].assign;
            lower[center_table_d[assign]] += p[thread_id].cost - x_cost;
        }
    }
}
