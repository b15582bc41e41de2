//! weft-sim: golden models. Plain Rust, no signals: the obviously-correct behavior
//! every RTL block in `weft-hdl` is checked against, cycle by cycle.
//!
//! Masks are held as one `u64` per row (bit `c` = lane `c`), so models support up to
//! 64 lanes; the paper's widths are 32.
#![allow(special_module_name)] // `lib/` is the primitives folder of STYLE.md

pub mod capri;
pub mod cgrf;
pub mod core;
pub mod dom;
pub mod lib;
pub mod lwm;
pub mod sched;
pub mod vgiw;
