//! Named presets: the parameter sets that are exported, linted and measured.
//! Derived widths are computed here once, next to the parameters they come from.
use crate::lwm::sub_warp_unit::SubWarpUnit;

/// `sub_warp_unit`: 32 lanes x 8 rows (256-thread large warps, the paper's LWM256).
pub type SubWarpUnit32x8 = SubWarpUnit<32, 8, 256, 3, 96>;
/// `sub_warp_unit_4x8`: 4 lanes x 8 rows (32-thread large warp on 4 lanes, Figure 7).
pub type SubWarpUnit4x8 = SubWarpUnit<4, 8, 32, 3, 12>;
