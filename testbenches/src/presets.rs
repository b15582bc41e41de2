//! The one list of exported presets: the exporter, the linter, `weft area`, `weft sim`
//! and `weft cosim` all walk it. Each mechanism's bench module contributes its own
//! entries through a `presets()` function.
use crate::bench::Bench;
use rust_hdl::prelude::*;

/// One exportable parameter set of a block.
pub struct Preset {
    /// Verilog top module and file name (`verilog_out/<name>.v`).
    pub name: &'static str,
    /// One line: what the block is and which paper section.
    pub summary: &'static str,
    /// Parameter names and values, for `weft list`.
    pub params: &'static [(&'static str, usize)],
    /// rust-hdl's Verilog for the block (top module still named `top`).
    pub verilog: fn() -> String,
    /// A fresh bench: RTL plus golden model, ready for random stimulus.
    pub bench: fn() -> Box<dyn Bench>,
}

/// rust-hdl's Verilog for a connected default instance of `B`.
pub fn verilog_of<B: Block + Default>() -> String {
    let mut uut = B::default();
    uut.connect_all();
    generate_verilog(&uut)
}

/// Every preset, in the order `weft list` shows them.
pub fn all() -> Vec<Preset> {
    let mut list = vec![];
    list.extend(crate::lib::presets());
    list.extend(crate::lwm::presets());
    list.extend(crate::sched::presets());
    list.extend(crate::capri::presets());
    list.extend(crate::dom::presets());
    list.extend(crate::vgiw::presets());
    list.extend(crate::cgrf::presets());
    list
}

/// Cycles the test suite co-simulates `name` for: 100 000, except the fabric top, a
/// design of 16 switches and 30 units whose rust-hdl recording and Icarus replay run
/// a few hundred cycles per second (its end-to-end tests stream 1 000 threads through
/// the same RTL in `testbenches/tests/fabric.rs`).
pub fn suite_cosim_cycles(name: &str) -> u64 {
    match name {
        "fabric" => 4_000,
        "vgiw_core" => 2_000,
        _ => 100_000,
    }
}

/// The preset named `name`, or an error listing the valid names.
pub fn find(name: &str) -> Result<Preset, String> {
    let mut list = all();
    match list.iter().position(|p| p.name == name) {
        Some(i) => Ok(list.swap_remove(i)),
        None => Err(format!(
            "unknown preset `{name}`; valid presets: {}",
            all().iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
        )),
    }
}
