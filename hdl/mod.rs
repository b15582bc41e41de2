#![allow(special_module_name)] // `lib/` is the primitives folder of STYLE.md

pub mod capri;
pub mod cgrf;
pub mod dom;
pub mod lib;
pub mod lwm;
pub mod presets;
pub mod sched;
pub mod simt;
pub mod vgiw;
