//! Benches of the shared primitives and the divergence stack (used by every mechanism).
use crate::presets::{verilog_of, Preset};
use weft_hdl::presets::DivergenceStack32;

pub mod divergence_stack;

pub fn presets() -> Vec<Preset> {
    vec![Preset {
        name: "divergence_stack",
        summary: "per-warp divergence (reconvergence) stack, 32 lanes, 8 entries, 32-bit PCs (LWM §2.3, CAPRI §2.1)",
        params: &[("LANES", 32), ("DEPTH", 8), ("PCW", 32)],
        verilog: verilog_of::<DivergenceStack32>,
        bench: || Box::new(divergence_stack::DivergenceStackBench::<32, 8, 32, 4>::default()),
    }]
}
