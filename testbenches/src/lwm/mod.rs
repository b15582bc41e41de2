//! Benches of the LWM blocks.
use crate::presets::Preset;
use weft_hdl::presets::{BranchBuffers32x8, SubWarpUnit32x8, SubWarpUnit4x8};

pub mod branch_buffers;
pub mod sub_warp_unit;

pub fn presets() -> Vec<Preset> {
    vec![
        Preset::of::<SubWarpUnit32x8>(
"sub_warp_unit",
"LWM sub-warp unit, 256-thread large warps on 32 lanes (LWM §3.1)",
),
        Preset::of::<SubWarpUnit4x8>(
"sub_warp_unit_4x8",
"LWM sub-warp unit, 32-thread large warp on 4 lanes (LWM Figure 7)",
),
        Preset::of::<BranchBuffers32x8>(
"branch_buffers",
"LWM large-warp branch buffers (taken / not-taken), 256-thread large warps on 32 lanes (LWM §3.1, §3.3)",
),
    ]
}
