//! Benches of the shared primitives and the divergence stack (used by every mechanism).
use crate::presets::Preset;
use weft_hdl::presets::DivergenceStack32;

pub mod divergence_stack;

pub fn presets() -> Vec<Preset> {
    vec![Preset::of::<DivergenceStack32>(
"divergence_stack",
"per-warp divergence (reconvergence) stack, 32 lanes, 8 entries, 32-bit PCs (LWM §2.3, CAPRI §2.1)",
)]
}
