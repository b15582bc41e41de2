//! VGIW control-flow coalescing (`vgiw-control-flow-coalescing.txt` §2–3; SPEC §5).
pub mod bbs;
pub mod cvt;
pub mod cvu_initiator;
pub mod cvu_terminator;
pub mod done_queue;
pub mod fabric_loader;
pub mod live_value_port;
pub mod lvc;
pub mod program;
pub mod vgiw_control;
