//! Large Warp Microarchitecture (`lwm-two-level-scheduling.txt` §3.1, §3.3).
pub mod sub_warp_unit;
