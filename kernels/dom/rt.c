/* rt: ray tracing through a BVH, modelled on the RT kernel of the Diverge-on-Miss paper
 * (Table 3, §7.3.3: bwfirt SimpleBVH path tracing, one ray per thread). Scaled down:
 * NT=8192 random small triangles (edges <= 0.05) in the unit box plus 5 walls of the box
 * (10 big triangles; the front z=0 face is open), LCG seed 11. Setup builds a median-split
 * BVH (longest axis, median centroid by quickselect, leaves of <= 4 triangles) of 32-byte
 * nodes: 6 bound floats, then `first` and `count` (count 0 = inner node, its children
 * are `first` and `first+1`). 32x32 rays, CTA 32 = an 8x4 pixel tile; a primary
 * ray from (0.5,0.5,-1) through the pixel on z=0, then 2 diffuse bounces whose direction
 * is normal-side random (per-thread LCG, not normalised: the slab and Moller-Trumbore
 * tests need no unit length). Per ray: a 64-entry stack in private memory (the tree is ~13
 * deep), per node 6 loads + slab test, Moller-Trumbore at leaves. Writes per thread the
 * last hit triangle (-1 = escaped) and the sum of the hit t's. No primary ray escapes (the
 * box is closed but z=0); a bounce may leave by z=0 and end its path early. 8192 triangles
 * (not ~1 M) keep 1024 rays at 28 M thread instructions. */
#include "weft.h"

#define NT 8192
#define NW 10
#define NTRI (NT + NW)
#define LEAF 4
#define NNODE (2 * NTRI)
#define IMG 32
WEFT_LAUNCH(IMG * IMG, 32);

typedef struct {
    float lo[3], hi[3];
    int32_t first, count;
} Node;

float tri[NTRI * 9];
int32_t order[NTRI];
Node node[NNODE];
int32_t hitid[IMG * IMG];
float tsum[IMG * IMG];
static int32_t nnodes;

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }
static inline float unit(uint32_t *s) { return (float)(lcg(s) >> 8) * (1.0f / 16777216.0f); }

static float cent(int32_t t, int a) {
    const float *v = &tri[t * 9];
    return v[a] + v[3 + a] + v[6 + a];
}

static void build(int32_t n, int32_t first, int32_t count) {
    Node *b = &node[n];
    for (int a = 0; a < 3; a++) {
        b->lo[a] = 1e30f;
        b->hi[a] = -1e30f;
    }
    for (int32_t i = first; i < first + count; i++)
        for (int v = 0; v < 3; v++)
            for (int a = 0; a < 3; a++) {
                float x = tri[order[i] * 9 + v * 3 + a];
                if (x < b->lo[a]) b->lo[a] = x;
                if (x > b->hi[a]) b->hi[a] = x;
            }
    if (count <= LEAF) {
        b->first = first;
        b->count = count;
        return;
    }
    int ax = 0;
    for (int a = 1; a < 3; a++)
        if (b->hi[a] - b->lo[a] > b->hi[ax] - b->lo[ax]) ax = a;
    /* median split: quickselect (Hoare, middle pivot) puts the count/2 smallest centroids
     * on the axis first; O(count) per node keeps the setup short */
    int32_t lo = first, hi = first + count - 1, m = first + count / 2;
    while (lo < hi) {
        float pv = cent(order[(lo + hi) / 2], ax);
        int32_t i = lo, j = hi;
        while (i <= j) {
            while (cent(order[i], ax) < pv) i++;
            while (cent(order[j], ax) > pv) j--;
            if (i <= j) {
                int32_t x = order[i];
                order[i++] = order[j];
                order[j--] = x;
            }
        }
        if (m <= j)
            hi = j;
        else if (m >= i)
            lo = i;
        else
            break;
    }
    int32_t c = nnodes;
    nnodes += 2;
    b->first = c;
    b->count = 0;
    build(c, first, count / 2);
    build(c + 1, first + count / 2, count - count / 2);
}

void weft_setup(void) {
    uint32_t s = 11;
    for (int32_t t = 0; t < NT; t++) {
        float c[3];
        for (int a = 0; a < 3; a++) c[a] = 0.05f + 0.9f * unit(&s);
        for (int v = 0; v < 3; v++)
            for (int a = 0; a < 3; a++) tri[t * 9 + v * 3 + a] = c[a] + 0.05f * (unit(&s) - 0.5f);
    }
    /* 5 walls of the unit box (x=0, x=1, y=0, y=1, z=1), two triangles each */
    static const float w[NW][9] = {
        {0, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 1, 1, 0, 1, 0, 0, 0, 1},
        {1, 0, 0, 1, 1, 0, 1, 0, 1}, {1, 1, 1, 1, 1, 0, 1, 0, 1},
        {0, 0, 0, 1, 0, 0, 0, 0, 1}, {1, 0, 1, 1, 0, 0, 0, 0, 1},
        {0, 1, 0, 1, 1, 0, 0, 1, 1}, {1, 1, 1, 1, 1, 0, 0, 1, 1},
        {0, 0, 1, 1, 0, 1, 0, 1, 1}, {1, 1, 1, 1, 0, 1, 0, 1, 1}};
    for (int t = 0; t < NW; t++)
        for (int k = 0; k < 9; k++) tri[(NT + t) * 9 + k] = w[t][k];
    for (int32_t t = 0; t < NTRI; t++) order[t] = t;
    nnodes = 1;
    build(0, 0, NTRI);
}

void weft_kernel(void) {
    uint32_t t = weft_tid(), tile = t / 32, l = t % 32;
    uint32_t px = (tile % (IMG / 8)) * 8 + l % 8, py = (tile / (IMG / 8)) * 4 + l / 8;
    uint32_t s = t * 2654435761u + 1;
    float o[3] = {0.5f, 0.5f, -1.0f};
    float d[3] = {((float)px + 0.5f) / IMG - 0.5f, ((float)py + 0.5f) / IMG - 0.5f, 1.0f};
    int32_t last = -1;
    float sum = 0.0f;
    for (int bounce = 0; bounce < 3; bounce++) {
        float inv[3];
        for (int a = 0; a < 3; a++) inv[a] = 1.0f / (d[a] != 0.0f ? d[a] : 1e-20f);
        int32_t stack[64], sp = 0, best = -1;
        float bt = 1e30f;
        stack[sp++] = 0;
        while (sp > 0) {
            const Node *b = &node[stack[--sp]];
            float t0 = 0.0f, t1 = bt;
            for (int a = 0; a < 3; a++) {
                float ta = (b->lo[a] - o[a]) * inv[a], tb = (b->hi[a] - o[a]) * inv[a];
                if (ta > tb) {
                    float x = ta;
                    ta = tb;
                    tb = x;
                }
                t0 = ta > t0 ? ta : t0;
                t1 = tb < t1 ? tb : t1;
            }
            if (t0 > t1) continue;
            if (b->count == 0) {
                stack[sp++] = b->first + 1;
                stack[sp++] = b->first;
                continue;
            }
            for (int32_t i = b->first; i < b->first + b->count; i++) {
                const float *v = &tri[order[i] * 9];
                float e1[3], e2[3], p[3], q[3], tv[3];
                for (int a = 0; a < 3; a++) {
                    e1[a] = v[3 + a] - v[a];
                    e2[a] = v[6 + a] - v[a];
                    tv[a] = o[a] - v[a];
                }
                p[0] = d[1] * e2[2] - d[2] * e2[1];
                p[1] = d[2] * e2[0] - d[0] * e2[2];
                p[2] = d[0] * e2[1] - d[1] * e2[0];
                float det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
                if (det > -1e-12f && det < 1e-12f) continue;
                float id = 1.0f / det;
                float u = (tv[0] * p[0] + tv[1] * p[1] + tv[2] * p[2]) * id;
                if (u < 0.0f || u > 1.0f) continue;
                q[0] = tv[1] * e1[2] - tv[2] * e1[1];
                q[1] = tv[2] * e1[0] - tv[0] * e1[2];
                q[2] = tv[0] * e1[1] - tv[1] * e1[0];
                float w = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) * id;
                if (w < 0.0f || u + w > 1.0f) continue;
                float tt = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * id;
                if (tt > 1e-4f && tt < bt) {
                    bt = tt;
                    best = order[i];
                }
            }
        }
        if (best < 0) break;
        last = best;
        sum += bt;
        /* diffuse bounce: random direction on the side of the normal facing the ray */
        const float *v = &tri[best * 9];
        float e1[3], e2[3], n[3];
        for (int a = 0; a < 3; a++) {
            o[a] = o[a] + bt * d[a];
            e1[a] = v[3 + a] - v[a];
            e2[a] = v[6 + a] - v[a];
        }
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        float side = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
        float r[3], dot = 0.0f;
        for (int a = 0; a < 3; a++) {
            r[a] = unit(&s) * 2.0f - 1.0f;
            dot += r[a] * n[a];
        }
        float flip = (dot > 0.0f) == (side > 0.0f) ? -1.0f : 1.0f;
        for (int a = 0; a < 3; a++) d[a] = r[a] * flip;
    }
    hitid[t] = last;
    tsum[t] = sum;
}
