//! Diverge on miss (`diverge-on-miss.txt` §3–6; SPEC §4).
pub mod adaptive_diff;
pub mod mcb_entry;
pub mod mdt;
pub mod slip_controller;
pub mod warp_memory_divergence;
