//! Warp fetch schedulers (`lwm-two-level-scheduling.txt` §3.2).
