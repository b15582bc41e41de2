//! The SIMT core as RTL: weft's blocks composed into a core that runs RV32IM kernels
//! (docs/core.md §8, `weft run --rtl`).
pub mod decoder;
pub mod mul_div;
pub mod pdom;
pub mod shift_add_multiplier;
pub mod simt_core;
