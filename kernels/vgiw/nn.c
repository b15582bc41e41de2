/* nn: Rodinia's k-nearest-neighbours distance kernel, euclid (VGIW paper Table 2's NN,
 * 2 basic blocks). Each thread takes one record (Rodinia's LatLong: latitude and
 * longitude interleaved, so each of a warp's two loads spans 256 bytes at a stride of 8)
 * and, when its index is below the record count, writes its Euclidean distance from the
 * query point (`dist = sqrtf(dlat * dlat + dlng * dlng)`); the host then picks the k
 * smallest. Rodinia reads hurricane records from its data files; here 150 000 records
 * from a seeded LCG, latitude in [0, 90) and longitude in [0, 180) (chosen: the values
 * do not change the control flow), a count that is not a multiple of the CTA so that the
 * last CTA runs both sides of the guard, as Rodinia's does. The query point is Rodinia's
 * run script's (-lat 30 -lng 90), read from globals as the kernel's arguments are. CTAs
 * of 256 (Rodinia's DEFAULT_THREADS_PER_BLOCK). */
#include "weft.h"

#define RECORDS 150000
#define CTA 256
#define THREADS ((RECORDS + CTA - 1) / CTA * CTA)
WEFT_LAUNCH(THREADS, CTA);

typedef struct {
    float lat, lng;
} LatLong;

LatLong locations[THREADS];
float distances[THREADS];
/* The kernel's arguments. */
int32_t num_records;
float query_lat, query_lng;

void weft_setup(void) {
    uint32_t s = 4276;
#define UNIFORM(lo, hi) (s = s * 1664525u + 1013904223u, (lo) + ((hi) - (lo)) * (float)(s >> 8) / 16777216.0f)
    for (uint32_t i = 0; i < RECORDS; i++) {
        locations[i].lat = UNIFORM(0.0f, 90.0f);
        locations[i].lng = UNIFORM(0.0f, 180.0f);
    }
    num_records = RECORDS;
    query_lat = 30.0f;
    query_lng = 90.0f;
}

void weft_kernel(void) {
    int global_id = (int)weft_tid();
    const LatLong *lat_long = locations + global_id;
    if (global_id < num_records) {
        float *dist = distances + global_id;
        *dist = __builtin_sqrtf((query_lat - lat_long->lat) * (query_lat - lat_long->lat) +
                                (query_lng - lat_long->lng) * (query_lng - lat_long->lng));
    }
}
