/* ray: a Whitted-style ray tracer, one thread per pixel (CAPRI Table 2's RAY, after the
 * ISPASS 2009 RAY benchmark that ships with GPGPU-Sim, Maxime Boroujerdi's render kernel).
 * Per pixel: up to nRec = 5 bounces, `for (i = 0; i < nRec && n == i; i++)` (the loop ends
 * when the ray hits nothing); each bounce intersects all numObj = 5 objects (`if (fg)`
 * plane else sphere, the same object in every thread), keeps the nearest hit, shades it
 * with `if (dot(N, L) > 0 && notShadowRay(...))` (a shadow ray over the objects that stops
 * at the first one in the way) and a specular term (the original's pow 50 as 49
 * multiplications), and reflects the ray; the colours of the bounces are then folded back
 * (`for (i = n - 1; i > 0; i--)`). The branches that divide pixels (a sphere missed or hit,
 * a point lit or in shadow, the number of bounces) are coherent across neighbouring
 * pixels. Short `?:`s and `if (t > 0 && t < prof) {prof = t; Obj = j;}`, which nvcc
 * predicates, are written as selects; the original's __syncthreads() after the ray set-up
 * is left out (it guards no shared data: its __shared__ node copy is commented out).
 * Scene (the original's host code was not available): numObj = 5, a floor plane and 4
 * spheres resting on it, placed by a seeded LCG, the original's light at (10, 10, 10),
 * the eye above the floor looking 14 degrees up (a floor pixel costs two bounces or more,
 * so a view mostly of the floor costs 48 M thread instructions, over the budget of 40 M).
 * A 512 x 384 image (196 608 threads, 1 536 CTAs: 6.4 waves of 30 cores of 8 CTAs, where
 * GPGPU-Sim's run renders 256 x 256, 1.7 waves) in CTAs of 16 x 8 pixels (128 threads, the
 * ISPASS'09 block; a warp is two 16-pixel rows). A pixel spans 2 / min(W, H) of the view
 * plane, so the scaling shows more of the scene at a finer grain. The costly floor pixels
 * are the bottom rows, the last CTAs in raster order: WPDOM's tail is 12.4% at 384 x 320
 * (4 waves), 12.2% at 384 x 480 (6 waves) and 8.1% here (`weft run kernels/capri/ray.c
 * --machine capri --set divergence=pdom`). */
#include "weft.h"

/* The input generator's seed (`weft eval capri` runs two more with -DSEED=N). */
#ifndef SEED
#define SEED 2008u
#endif

#ifndef W /* the study's first input sets it */
#define W 512
#endif
#ifndef H /* the study's first input sets it */
#define H 384
#endif
#define BX 16
#define BY 8
#define NUM_OBJ 5
#define NREC 5
WEFT_LAUNCH(W *H, BX *BY);

typedef struct {
    float x, y, z;
} float3;
typedef struct {
    float x, y, z, w;
} float4;
typedef struct {
    float3 c;         /* centre (a point of the plane) */
    float r;          /* radius */
    float R, V, B, A; /* colour */
    uint32_t fg;      /* 1: the plane */
} Node;

Node node[NUM_OBJ];
/* The inverse view matrix: rows' xyz are forward, up, right; their w the eye. */
float mview[3][4];
float df;
uint32_t result[W * H];

static float3 f3(float x, float y, float z) { return (float3){x, y, z}; }
static float3 add(float3 a, float3 b) { return f3(a.x + b.x, a.y + b.y, a.z + b.z); }
static float3 sub(float3 a, float3 b) { return f3(a.x - b.x, a.y - b.y, a.z - b.z); }
static float3 scale(float3 a, float s) { return f3(a.x * s, a.y * s, a.z * s); }
static float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static float3 normalize(float3 v) { return scale(v, 1.0f / __builtin_sqrtf(dot(v, v))); }

static uint32_t to_bits(float f) {
    union { float f; uint32_t b; } u = {f};
    return u.b;
}
static float from_bits(uint32_t b) {
    union { uint32_t b; float f; } u = {b};
    return u.f;
}
/* (c ? a : b) without a branch, as nvcc predicates it. */
static uint32_t mask(int c) {
    uint32_t m = -(uint32_t)c;
    __asm__ volatile("" : "+r"(m));
    return m;
}
static float pickf(int c, float a, float b) {
    uint32_t m = mask(c);
    return from_bits((to_bits(a) & m) | (to_bits(b) & ~m));
}

static float intersect_sphere(float3 a, float3 u, float3 c, float r) {
    float3 l = sub(c, a);
    float d = dot(l, u), l2 = dot(l, l), r2 = r * r, res;
    if (d < 0.0f && l2 > r2) {
        res = 0.0f;
    } else {
        float m2 = l2 - d * d;
        if (m2 > r2) {
            res = 0.0f;
        } else {
            float q = __builtin_sqrtf(r2 - m2);
            res = d + pickf(l2 > r2, -q, q);
        }
    }
    return res;
}

/* The plane y = c.y (the original ignores the normal it is given). */
static float intersect_plane(float3 a, float3 u, float3 c) {
    float m = u.y, res;
    if (__builtin_fabsf(m) < 0.0001f) {
        res = 0.0f;
    } else {
        float t = -(a.y - c.y) / m;
        res = pickf(t > 0.0f, t, 0.0f);
    }
    return res;
}

static int not_shadow_ray(float3 a, float3 u) {
    float t = 0.0f;
    float3 l = f3(10.0f, 10.0f, 10.0f), to_light = sub(l, a);
    float dst = dot(to_light, to_light);
    float3 start = add(a, scale(u, 0.0001f));
    for (int j = 0; j < NUM_OBJ && t == 0.0f; j++) {
        if (node[j].fg)
            t = intersect_plane(start, u, node[j].c);
        else
            t = intersect_sphere(start, u, node[j].c, node[j].r);
        float3 p = add(a, scale(u, t));
        t = pickf(t > 0.0f && dot(p, p) > dst, 0.0f, t);
    }
    return t == 0.0f;
}

static float pow50(float a) {
    return a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a *
           a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a *
           a * a * a * a * a * a;
}

static uint32_t rgba_to_int(float4 c) {
    float x = __builtin_fminf(__builtin_fmaxf(c.x, 0.0f), 1.0f), y = __builtin_fminf(__builtin_fmaxf(c.y, 0.0f), 1.0f),
          z = __builtin_fminf(__builtin_fmaxf(c.z, 0.0f), 1.0f), w = __builtin_fminf(__builtin_fmaxf(c.w, 0.0f), 1.0f);
    return ((uint32_t)(w * 255.0f) << 24) | ((uint32_t)(z * 255.0f) << 16) |
           ((uint32_t)(y * 255.0f) << 8) | (uint32_t)(x * 255.0f);
}

void weft_setup(void) {
    uint32_t s = SEED;
#define UNIFORM(lo, hi) (s = s * 1664525u + 1013904223u, (lo) + ((hi) - (lo)) * (float)(s >> 8) / 16777216.0f)
    node[0] = (Node){{0.0f, -1.0f, 0.0f}, 0.0f, 0.6f, 0.6f, 0.6f, 1.0f, 1};
    for (int j = 1; j < NUM_OBJ; j++) {
        float r = UNIFORM(0.35f, 0.75f);
        node[j].c = f3(UNIFORM(-1.6f, 1.6f), -1.0f + r + UNIFORM(0.0f, 0.8f), UNIFORM(-2.0f, 0.5f));
        node[j].r = r;
        node[j].R = UNIFORM(0.2f, 1.0f);
        node[j].V = UNIFORM(0.2f, 1.0f);
        node[j].B = UNIFORM(0.2f, 1.0f);
        node[j].A = 1.0f;
        node[j].fg = 0;
    }
    /* Eye at (0, 0.4, 4) looking down -z, slightly down. */
    float3 fwd = normalize(f3(0.0f, 0.25f, -1.0f)), right = f3(1.0f, 0.0f, 0.0f);
    float3 up = f3(right.y * fwd.z - right.z * fwd.y, right.z * fwd.x - right.x * fwd.z,
                   right.x * fwd.y - right.y * fwd.x);
    float rows[3][3] = {{fwd.x, fwd.y, fwd.z}, {-up.x, -up.y, -up.z}, {right.x, right.y, right.z}};
    float eye[3] = {0.0f, 0.4f, 4.0f};
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) mview[r][c] = rows[r][c];
        mview[r][3] = eye[r];
    }
    df = 2.0f;
}

void weft_kernel(void) {
    uint32_t t = weft_tid() % (BX * BY), cta = weft_ctaid();
    uint32_t x = (cta % (W / BX)) * BX + t % BX, y = (cta / (W / BX)) * BY + t / BX;
    uint32_t id = x + y * W;
    float4 pile[NREC];
    uint32_t obj = 0, n = 0;
    for (int i = 0; i < NREC; ++i) pile[i] = (float4){0.0f, 0.0f, 0.0f, 1.0f};
    float prof = 10000.0f;
    result[id] = 0;
    float tpixel = 2.0f / (float)(W < H ? W : H);
    float3 ra = f3(mview[0][3], mview[1][3], mview[2][3]);
    float3 m0 = f3(mview[0][0], mview[0][1], mview[0][2]), m1 = f3(mview[1][0], mview[1][1], mview[1][2]),
           m2 = f3(mview[2][0], mview[2][1], mview[2][2]);
    float3 ru = add(add(scale(m0, df), scale(m2, ((float)x - (float)W * 0.5f) * tpixel)),
                    scale(m1, ((float)y - (float)H * 0.5f) * tpixel));
    ru = normalize(ru);

    for (uint32_t i = 0; i < NREC && n == i; i++) {
        for (uint32_t j = 0; j < NUM_OBJ; j++) {
            float tj;
            if (node[j].fg)
                tj = intersect_plane(ra, ru, node[j].c);
            else
                tj = intersect_sphere(ra, ru, node[j].c, node[j].r);
            int nearer = tj > 0.0f && tj < prof;
            prof = pickf(nearer, tj, prof);
            obj = (j & mask(nearer)) | (obj & ~mask(nearer));
        }
        float th = prof;
        if (th > 0.0f && th < 10000.0f) {
            n++;
            Node nod = node[obj];
            float4 color = {nod.R, nod.V, nod.B, nod.A};
            float3 p = add(ra, scale(ru, th)), l = normalize(sub(f3(10.0f, 10.0f, 10.0f), p)),
                   v = normalize(sub(ra, p));
            /* nod.fg ? the plane's normal : the sphere's, both computed and selected. */
            float3 ns = normalize(sub(p, nod.c));
            uint32_t plane = mask(nod.fg != 0);
            float3 nn = f3(pickf(plane, 0.0f, ns.x), pickf(plane, 1.0f, ns.y), pickf(plane, 0.0f, ns.z));
            float flip = pickf(dot(v, nn) < 0.0f, -1.0f, 1.0f);
            float3 np = scale(nn, flip);
            pile[i] = (float4){0.05f * color.x, 0.05f * color.y, 0.05f * color.z, 0.05f * color.w};
            if (dot(np, l) > 0.0f && not_shadow_ray(p, l)) {
                float3 ri = normalize(add(l, v));
                float diffuse = 0.3f * __builtin_fminf(1.0f, dot(np, l));
                pile[i].x += diffuse * color.x;
                pile[i].y += diffuse * color.y;
                pile[i].z += diffuse * color.z;
                pile[i].w += diffuse * color.w;
                float spec = 0.8f * pow50(__builtin_fmaxf(0.0f, __builtin_fminf(1.0f, dot(np, ri))));
                pile[i].x += spec;
                pile[i].y += spec;
                pile[i].z += spec;
            }
            ru = normalize(sub(scale(nn, 2.0f * dot(nn, v)), v));
            ra = add(p, scale(ru, 0.0001f));
        }
        prof = 10000.0f;
    }
    for (int i = (int)n - 1; i > 0; i--) {
        pile[i - 1].x += 0.8f * pile[i].x;
        pile[i - 1].y += 0.8f * pile[i].y;
        pile[i - 1].z += 0.8f * pile[i].z;
        pile[i - 1].w += 0.8f * pile[i].w;
    }
    result[id] += rgba_to_int(pile[0]);
}
