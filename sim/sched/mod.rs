//! Warp fetch schedulers (`lwm-two-level-scheduling.txt` §3.2).

pub mod two_level_scheduler;
