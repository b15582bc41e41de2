//! Golden models of the MT-CGRF dataflow fabric units (SPEC §6).
pub mod compute_unit;
pub mod dataflow;
pub mod divide_tile;
pub mod fabric;
pub mod fabric_tile;
pub mod load_store_unit;
pub mod memory_tile;
pub mod special_compute_unit;
pub mod split_join;
pub mod switch;
pub mod thread_port;
pub mod token_buffer;
