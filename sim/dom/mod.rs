//! Diverge on miss (`diverge-on-miss.txt` §3–6; SPEC §4).
pub mod adaptive_diff;
pub mod mcb_entry;
pub mod mdt;
pub mod slip_controller;
pub mod warp_memory_divergence;

/// Bits `0..n` set (n <= 64).
pub fn ones(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}
