/* cfd_rows: cfd.c with its elements numbered row by row (x fastest, then y, then z)
 * instead of in 4 x 4 x 2 bricks: the choice cfd.c makes, measured (`weft eval capri`). */
#define CFD_ROW_NUMBERING
#include "cfd.c"
