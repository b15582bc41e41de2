//! weft-testbenches: model-vs-RTL benches, contracts, vector recording and the
//! co-simulation of a preset (recorded here, replayed by `weft-flow`), shared by the
//! `weft` command and the tests.
//! Folders mirror `weft-hdl` and `weft-sim`.

pub mod bench;
pub mod capri;
pub mod cgrf;
pub mod commands;
pub mod convert;
pub mod cosim;
pub mod dom;
pub mod formal;
#[path = "lib/mod.rs"]
#[allow(special_module_name)] // mirrors the `lib/` primitives folder of weft-hdl
pub mod lib;
pub mod lwm;
pub mod memory;
pub mod presets;
pub mod run;
pub mod sched;
pub mod simt;
pub mod vgiw;
