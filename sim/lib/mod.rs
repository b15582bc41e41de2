//! Models of the shared primitives.
pub mod column_compactor;
