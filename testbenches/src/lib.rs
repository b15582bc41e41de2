//! weft-testbenches: model-vs-RTL benches, contracts, vector recording and the
//! co-simulation runners, shared by the `weft` command and the tests.
#![allow(special_module_name)] // `lib/` mirrors the primitives folder of STYLE.md

pub mod bench;
pub mod convert;
pub mod lwm;
pub mod run;
