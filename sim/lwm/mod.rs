//! Models of the LWM blocks.
pub mod sub_warp_unit;
