//! weft-testbenches: model-vs-RTL benches, contracts, vector recording and the
//! co-simulation runners, shared by the `weft` command and the tests.
//! Folders mirror `weft-hdl` and `weft-sim`.

pub mod bench;
pub mod convert;
pub mod cosim;
pub mod dom;
pub mod lwm;
pub mod presets;
pub mod run;
pub mod sched;
pub mod tools;
