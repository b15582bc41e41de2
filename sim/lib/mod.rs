//! Models of the shared primitives.
pub mod column_compactor;
pub mod divergence_stack;
pub mod popcount;
pub mod priority_encoder;
pub mod round_robin_arbiter;

/// The mask of bits `0..n` (every bit from 64 up).
pub fn low_bits(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}
