//! Models of the LWM blocks.
pub mod branch_buffers;
pub mod sub_warp_unit;
