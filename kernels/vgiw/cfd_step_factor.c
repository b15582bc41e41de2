/* cfd_step_factor: Rodinia's CFD solver (euler3d), its kernel cuda_compute_step_factor
 * (VGIW paper Table 2's CFD compute_step_factor, 2 basic blocks). One thread per element
 * of the unstructured mesh: it reads the element's 5 conserved variables (density,
 * momentum x/y/z, density energy; Rodinia's structure of arrays, variable v of element i
 * at i + v * nelr, so every load is coalesced), derives velocity (three divides), squared
 * speed, pressure and speed of sound (a divide and a sqrtf), and writes its time-step
 * factor 0.5 / (sqrtf(area) * (sqrtf(speed_sqd) + speed_of_sound)). No branch:
 * straight-line arithmetic between 6 coalesced loads and one store.
 * Size: Rodinia's default input, fvcorr.domn.097K, has 97 046 elements, which its host
 * pads to nelr = 97 152 (a whole number of 192-thread CTAs); here every one of the nelr
 * elements gets its own state: Rodinia's free stream (Mach 1.2, angle of attack 0,
 * density 1.4, pressure 1) with each variable scaled by a seeded LCG's factor in
 * [0.95, 1.05), and a face area in [0.5, 1.5) (Rodinia reads the mesh's). nelr is a
 * compile-time constant here (an argument in Rodinia). CTAs of 192 (Rodinia's
 * BLOCK_SIZE_2). The launch is the first of Rodinia's solver loop (one per iteration). */
#include "weft.h"

#define NELR 97152
#define NVAR 5
#define VAR_DENSITY 0
#define VAR_MOMENTUM 1
#define VAR_DENSITY_ENERGY 4
#define GAMMA 1.4f
WEFT_LAUNCH(NELR, 192);

float variables[NVAR * NELR];
float areas[NELR];
float step_factors[NELR];

typedef struct {
    float x, y, z;
} float3;

static float compute_pressure(float density, float density_energy, float speed_sqd) {
    return (GAMMA - 1.0f) * (density_energy - 0.5f * density * speed_sqd);
}

static float compute_speed_of_sound(float density, float pressure) {
    return __builtin_sqrtf(GAMMA * pressure / density);
}

void weft_setup(void) {
    /* Rodinia's free stream. */
    const float mach = 1.2f, density = 1.4f, pressure = 1.0f;
    float c = __builtin_sqrtf(GAMMA * pressure / density);
    float ff_variable[NVAR];
    ff_variable[VAR_DENSITY] = density;
    ff_variable[VAR_MOMENTUM + 0] = density * (mach * c);
    ff_variable[VAR_MOMENTUM + 1] = 0.0f;
    ff_variable[VAR_MOMENTUM + 2] = 0.0f;
    ff_variable[VAR_DENSITY_ENERGY] = density * (0.5f * (mach * c) * (mach * c)) + pressure / (GAMMA - 1.0f);
    uint32_t s = 97046;
#define UNIFORM(lo, hi) (s = s * 1664525u + 1013904223u, (lo) + ((hi) - (lo)) * (float)(s >> 8) / 16777216.0f)
    for (uint32_t i = 0; i < NELR; i++) {
        for (uint32_t v = 0; v < NVAR; v++) variables[i + v * NELR] = ff_variable[v] * UNIFORM(0.95f, 1.05f);
        areas[i] = UNIFORM(0.5f, 1.5f);
    }
}

/* Rodinia's cuda_compute_step_factor. */
void weft_kernel(void) {
    const int i = (int)weft_tid();
    float density = variables[i + VAR_DENSITY * NELR];
    float3 momentum;
    momentum.x = variables[i + (VAR_MOMENTUM + 0) * NELR];
    momentum.y = variables[i + (VAR_MOMENTUM + 1) * NELR];
    momentum.z = variables[i + (VAR_MOMENTUM + 2) * NELR];
    float density_energy = variables[i + VAR_DENSITY_ENERGY * NELR];
    float3 velocity = {momentum.x / density, momentum.y / density, momentum.z / density};
    float speed_sqd = velocity.x * velocity.x + velocity.y * velocity.y + velocity.z * velocity.z;
    float pressure = compute_pressure(density, density_energy, speed_sqd);
    float speed_of_sound = compute_speed_of_sound(density, pressure);
    step_factors[i] = 0.5f / (__builtin_sqrtf(areas[i]) * (__builtin_sqrtf(speed_sqd) + speed_of_sound));
}
