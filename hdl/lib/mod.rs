//! Shared primitives used by several mechanisms.
pub mod column_compactor;
pub mod divergence_stack;
pub mod popcount;
pub mod priority_encoder;
pub mod round_robin_arbiter;
pub mod widen;
