/* cfd_time_step: Rodinia's CFD solver (euler3d), its kernel cuda_time_step (VGIW paper
 * Table 2's CFD time_step, 1 basic block). One thread per element advances its 5
 * conserved variables by one Runge-Kutta stage: factor = step_factor / (RK + 1 - j),
 * then variable = old_variable + factor * flux for each (Rodinia's structure of arrays,
 * variable v of element i at i + v * nelr: 11 coalesced loads, 5 coalesced stores, a
 * divide). No branch.
 * Size: nelr = 97 152, Rodinia's default input fvcorr.domn.097K (97 046 elements) padded
 * to whole 192-thread CTAs. The launch is the first stage (j = 0, a divide by 4) of
 * Rodinia's RK = 3 loop; j is read from a global, as Rodinia passes it, so the divide
 * stays a divide. The state from a seeded LCG: the old variables are Rodinia's free stream
 * (Mach 1.2, angle of attack 0) scaled per variable by a factor in [0.95, 1.05), the step
 * factors in [0.17, 0.34) (the range cfd_step_factor.c computes for its state), the fluxes
 * in [-1, 1). nelr is a compile-time constant here (an argument in Rodinia). CTAs of 192
 * (Rodinia's BLOCK_SIZE_4). */
#include "weft.h"

#define NELR 97152
#define NVAR 5
#define VAR_DENSITY 0
#define VAR_MOMENTUM 1
#define VAR_DENSITY_ENERGY 4
#define GAMMA 1.4f
#define RK 3
WEFT_LAUNCH(NELR, 192);

float old_variables[NVAR * NELR];
float variables[NVAR * NELR];
float step_factors[NELR];
float fluxes[NVAR * NELR];
/* The Runge-Kutta stage, Rodinia's argument j. */
int32_t rk_stage;

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
    uint32_t s = 3;
#define UNIFORM(lo, hi) (s = s * 1664525u + 1013904223u, (lo) + ((hi) - (lo)) * (float)(s >> 8) / 16777216.0f)
    for (uint32_t i = 0; i < NELR; i++) {
        for (uint32_t v = 0; v < NVAR; v++) {
            old_variables[i + v * NELR] = ff_variable[v] * UNIFORM(0.95f, 1.05f);
            fluxes[i + v * NELR] = UNIFORM(-1.0f, 1.0f);
        }
        step_factors[i] = UNIFORM(0.17f, 0.34f);
    }
    rk_stage = 0;
}

/* Rodinia's cuda_time_step. */
void weft_kernel(void) {
    const int i = (int)weft_tid();
    const int j = rk_stage;
    float factor = step_factors[i] / (float)(RK + 1 - j);
    variables[i + VAR_DENSITY * NELR] =
        old_variables[i + VAR_DENSITY * NELR] + factor * fluxes[i + VAR_DENSITY * NELR];
    variables[i + VAR_DENSITY_ENERGY * NELR] =
        old_variables[i + VAR_DENSITY_ENERGY * NELR] + factor * fluxes[i + VAR_DENSITY_ENERGY * NELR];
    variables[i + (VAR_MOMENTUM + 0) * NELR] =
        old_variables[i + (VAR_MOMENTUM + 0) * NELR] + factor * fluxes[i + (VAR_MOMENTUM + 0) * NELR];
    variables[i + (VAR_MOMENTUM + 1) * NELR] =
        old_variables[i + (VAR_MOMENTUM + 1) * NELR] + factor * fluxes[i + (VAR_MOMENTUM + 1) * NELR];
    variables[i + (VAR_MOMENTUM + 2) * NELR] =
        old_variables[i + (VAR_MOMENTUM + 2) * NELR] + factor * fluxes[i + (VAR_MOMENTUM + 2) * NELR];
}
