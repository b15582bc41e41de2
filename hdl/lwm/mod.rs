//! Large Warp Microarchitecture (`lwm-two-level-scheduling.txt` §3.1, §3.3).
pub mod branch_buffers;
pub mod sub_warp_unit;
