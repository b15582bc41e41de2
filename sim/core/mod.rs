//! The GPU core model (docs/core.md): C kernels compiled to RV32IMF run on a
//! cycle-level SIMT core composed of weft's golden models.
//!
//! - `asm` (tests only): a small RV32 assembler for hand-written programs;
//! - [`image`]: the kernel's ELF as a program image, symbols and launch size;
//! - [`isa`]: RV32IMF decoding; [`thread`]: one thread's state and the execution of one
//!   instruction (execution happens at issue: timing decides only who runs when);
//! - [`functional`]: the whole launch without timing, the reference of every timed run;
//! - [`cfg`]: the control-flow graph and every branch's reconvergence point;
//!   [`uniformity`]: which branches every thread of a CTA takes the same way;
//! - [`dataflow`]: the kernel lowered to VGIW basic-block dataflow graphs, and their
//!   functional interpreter;
//! - [`machine`]: the parameters of the modelled GPU (presets, TOML, `--set`), loaded
//!   and checked once;
//! - [`simt`]: the cycle-level SIMT core; [`memory`]: the L1, L2 and DRAM behind it;
//!   [`trace`]: its per-cycle state as a VCD;
//! - [`timed`]: a kernel on the machine's timing model (the SIMT core or the VGIW
//!   engine), the one place that picks it.
#[cfg(test)]
pub(crate) mod asm;
pub mod cfg;
pub mod dataflow;
pub mod functional;
pub mod image;
pub mod isa;
pub mod machine;
pub mod memory;
pub mod simt;
pub mod thread;
pub mod timed;
pub mod trace;
pub mod uniformity;
