/* mum_switch: mum.c with the child picked by the original's `switch` on the base (its
 * default case: no edge) instead of branch-free by the base's 2-bit code. Written so, clang
 * threads the default case into the no-edge exit, and lanes that diverge there rejoin only
 * at the next start of their query: the choice mum.c makes, measured (`weft eval capri`). */
#define MUM_SWITCH
#include "mum.c"
