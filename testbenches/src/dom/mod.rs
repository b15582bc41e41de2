//! Benches of the diverge-on-miss blocks (`diverge-on-miss.txt`).
use crate::presets::Preset;
use weft_hdl::presets::{
    AdaptiveDiff100k, McbEntry32, Mdt32, SlipController32x1, SlipController32x16,
    SlipController32x2, SlipController32x4, WarpMemoryDivergence32,
    WarpMemoryDivergence32Unlimited,
};

pub mod adaptive_diff;
pub mod mcb_entry;
pub mod mdt;
pub mod slip_controller;
pub mod warp_memory_divergence;

pub fn presets() -> Vec<Preset> {
    vec![
        Preset::of::<Mdt32>(
"mdt",
"Diverge on miss: one warp's Memory Divergence Table, M = 2, 32 lanes (DoM §4.1, Table 1)",
),
        Preset::of::<McbEntry32>(
"mcb_entry",
"Diverge on miss: one Memory Coalescing Buffer entry, 32 lanes, 32-byte lines (DoM §3.2, §4.1)",
),
        Preset::of::<SlipController32x1>(
"slip_controller_1w",
"Diverge on miss: adaptive slip controller, 1 warp x 32 lanes (DoM §5.1, Table 1)",
),
        Preset::of::<SlipController32x2>(
"slip_controller_2w",
"Diverge on miss: adaptive slip controller, 2 warps x 32 lanes (DoM §5.1, Table 1)",
),
        Preset::of::<SlipController32x4>(
"slip_controller_4w",
"Diverge on miss: adaptive slip controller, 4 warps x 32 lanes (DoM §5.1, Table 1)",
),
        Preset::of::<SlipController32x16>(
"slip_controller_16w",
"Diverge on miss: adaptive slip controller, 16 warps x 32 lanes (DoM §5.1, Table 1)",
),
        Preset::of::<AdaptiveDiff100k>(
"adaptive_diff",
"Diverge on miss: adaptive diff max-slip control, 100 000-cycle period (DoM §5.2)",
),
        Preset::of::<WarpMemoryDivergence32>(
"warp_memory_divergence",
"Diverge on miss for one 32-lane warp: MDT + MCB + slip counters, M = 2 (DoM §4–5)",
),
        Preset::of::<WarpMemoryDivergence32Unlimited>(
"warp_memory_divergence_unlimited",
"Diverge on miss for one 32-lane warp, an MDT that does not limit: M = 32 = lanes (DoM §7.1)",
),
    ]
}
