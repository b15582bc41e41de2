//! Models of the shared primitives.
pub mod column_compactor;
pub mod divergence_stack;
pub mod popcount;
pub mod priority_encoder;
pub mod round_robin_arbiter;
