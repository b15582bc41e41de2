/* tpacf_branch: tpacf.c with its bin search's `if` as written, a branch on RV32IMF (no
 * conditional move), instead of branch-free as nvcc predicates it: the choice tpacf.c
 * makes, measured (`weft eval capri`). */
#define TPACF_SEARCH_BRANCH
#include "tpacf.c"
