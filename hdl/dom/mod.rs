//! Divergence (reconvergence) stack (SPEC §2.4).
