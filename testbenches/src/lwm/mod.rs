//! Benches of the LWM blocks.
use crate::presets::{verilog_of, Preset};
use weft_hdl::presets::{BranchBuffers32x8, SubWarpUnit32x8, SubWarpUnit4x8};

pub mod branch_buffers;
pub mod sub_warp_unit;

pub fn presets() -> Vec<Preset> {
    vec![
        Preset {
            name: "sub_warp_unit",
            summary: "LWM sub-warp unit, 256-thread large warps on 32 lanes (LWM §3.1)",
            params: &[("LANES", 32), ("ROWS", 8)],
            verilog: verilog_of::<SubWarpUnit32x8>,
            bench: || Box::new(sub_warp_unit::SubWarpUnitBench::<32, 8, 256, 3, 96>::default()),
        },
        Preset {
            name: "sub_warp_unit_4x8",
            summary: "LWM sub-warp unit, 32-thread large warp on 4 lanes (LWM Figure 7)",
            params: &[("LANES", 4), ("ROWS", 8)],
            verilog: verilog_of::<SubWarpUnit4x8>,
            bench: || Box::new(sub_warp_unit::SubWarpUnitBench::<4, 8, 32, 3, 12>::default()),
        },
        Preset {
            name: "branch_buffers",
            summary: "LWM large-warp branch buffers (taken / not-taken), 256-thread large warps on 32 lanes (LWM §3.1, §3.3)",
            params: &[("LANES", 32), ("ROWS", 8)],
            verilog: verilog_of::<BranchBuffers32x8>,
            bench: || Box::new(branch_buffers::BranchBuffersBench::<32, 8, 256, 3, 96>::default()),
        },
    ]
}
