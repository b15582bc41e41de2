/* cfd_copy: Rodinia's CFD solver (euler3d), its kernel cuda_initialize_variables (VGIW
 * paper Table 2's CFD initialize_variables, 1 basic block): a pure copy, each thread
 * writing the 5 free-stream variables (Rodinia's __constant__ ff_variable) into its
 * element's slots (`variables[i + j * nelr] = ff_variable[j]`, j < 5, structure of arrays:
 * 5 coalesced stores, no arithmetic). The paper's "CFD3 simply moves data from one array to
 * another" is a kernel of this kind: memory bound and fully coalesced on SIMT.
 * Size: nelr = 97 152, Rodinia's default input fvcorr.domn.097K (97 046 elements) padded
 * to whole 192-thread CTAs. The launch is Rodinia's first (its host initialises
 * variables, old_variables and fluxes alike). ff_variable is Rodinia's free stream (Mach
 * 1.2, angle of attack 0, density 1.4, pressure 1), which weft_setup computes as
 * Rodinia's host does; a global here (Rodinia's constant memory). nelr is a compile-time
 * constant here (an argument in Rodinia). CTAs of 192 (Rodinia's BLOCK_SIZE_1). */
#include "weft.h"

#define NELR 97152
#define NVAR 5
#define VAR_DENSITY 0
#define VAR_MOMENTUM 1
#define VAR_DENSITY_ENERGY 4
#define GAMMA 1.4f
WEFT_LAUNCH(NELR, 192);

float ff_variable[NVAR];
float variables[NVAR * NELR];

void weft_setup(void) {
    const float mach = 1.2f, density = 1.4f, pressure = 1.0f;
    float c = __builtin_sqrtf(GAMMA * pressure / density);
    ff_variable[VAR_DENSITY] = density;
    ff_variable[VAR_MOMENTUM + 0] = density * (mach * c);
    ff_variable[VAR_MOMENTUM + 1] = 0.0f;
    ff_variable[VAR_MOMENTUM + 2] = 0.0f;
    ff_variable[VAR_DENSITY_ENERGY] = density * (0.5f * (mach * c) * (mach * c)) + pressure / (GAMMA - 1.0f);
}

/* Rodinia's cuda_initialize_variables. */
void weft_kernel(void) {
    const int i = (int)weft_tid();
    for (int j = 0; j < NVAR; j++) variables[i + j * NELR] = ff_variable[j];
}
