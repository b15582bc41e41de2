//! The one list of exported presets: the exporter, the linter, `weft area`, `weft sim`
//! and `weft cosim` all walk it. A preset is a named type alias of `weft_hdl::presets`
//! (where its parameters are stated, once) registered with [`Preset::of`]; its bench and
//! the parameters `weft list` shows come from the block's [`Tested`] implementation,
//! written once per block next to its bench.
use crate::bench::Bench;
use rust_hdl::prelude::*;

/// A block with a bench: implemented once per block, generically over its parameters.
pub trait Tested: Block + Default + 'static {
    /// Parameter names and values, for `weft list`.
    fn params() -> Vec<(&'static str, usize)>;
    /// A fresh bench: this block plus its golden model, ready for random stimulus.
    fn bench() -> Box<dyn Bench>;
    /// The block's contract as formal properties, for `weft prove`.
    fn properties() -> Option<Properties> {
        None
    }
}

/// A block's contract as formal properties (`weft_flow::prove`): the harness module
/// `weft_prove` (a `.props.v` file next to the bench) and the bugs that each property
/// must catch, so that none is vacuous.
pub struct Properties {
    /// Verilog for `read_verilog -formal`; `WEFT_UUT` stands for the preset's module
    /// and the parameters are the block's `params()`.
    pub harness: &'static str,
    /// (property, text of the exported Verilog, replacement): the property fails on
    /// the Verilog with the text replaced.
    pub planted: &'static [(&'static str, &'static str, &'static str)],
}

/// One exportable parameter set of a block.
pub struct Preset {
    /// Verilog top module and file name (`verilog_out/<name>.v`).
    pub name: &'static str,
    /// One line: what the block is and which paper section.
    pub summary: &'static str,
    /// Parameter names and values, for `weft list`.
    pub params: fn() -> Vec<(&'static str, usize)>,
    /// rust-hdl's Verilog for the block (top module still named `top`).
    pub verilog: fn() -> String,
    /// A fresh bench: RTL plus golden model, ready for random stimulus.
    pub bench: fn() -> Box<dyn Bench>,
    /// The block's formal properties, if it has them.
    pub properties: fn() -> Option<Properties>,
}

impl Preset {
    /// The preset `name` of block type `B` (a `weft_hdl::presets` alias).
    pub fn of<B: Tested>(name: &'static str, summary: &'static str) -> Preset {
        Preset {
            name,
            summary,
            params: B::params,
            verilog: verilog_of::<B>,
            bench: B::bench,
            properties: B::properties,
        }
    }

    /// The Verilog `weft export` writes: rust-hdl's, top module named after the preset,
    /// modules with equal bodies merged (`weft_flow::verilog::merge_modules`).
    pub fn exported(&self) -> String {
        let renamed = weft_flow::verilog::rename_top(&(self.verilog)(), self.name);
        weft_flow::verilog::merge_modules(&renamed, self.name)
    }
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
    list.extend(crate::simt::presets());
    list
}

/// Writes every preset's file into `dir`, creating it; returns the paths written.
pub fn export(
    presets: &[Preset],
    dir: &std::path::Path,
) -> Result<Vec<std::path::PathBuf>, String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create output folder {}: {e}", dir.display()))?;
    let texts = weft_flow::jobs::parallel(presets, 2, |p| p.exported());
    let mut written = vec![];
    for (p, text) in presets.iter().zip(texts) {
        let path = dir.join(format!("{}.v", p.name));
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// Cycles the full test tier co-simulates `name` for: 100 000, except the fabric top, a
/// design of 16 switches and 30 units whose rust-hdl recording and Icarus replay run
/// a few hundred cycles per second (its end-to-end tests stream 1 000 threads through
/// the same RTL in `testbenches/tests/fabric.rs`), and the VGIW core around it.
pub fn suite_cosim_cycles(name: &str) -> u64 {
    match name {
        "fabric" => 4_000,
        "vgiw_core" => 2_000,
        // 32 MCB entries of 32 lanes (67 584 flip-flops): its recording runs about 55
        // cycles per second (`weft cosim warp_memory_divergence_unlimited --cycles 1000`);
        // 1 000 cycles hold two of the bench's drains (every 400 cycles), each checking that
        // no thread is lost.
        "warp_memory_divergence_unlimited" => 1_000,
        // The SIMT core's bench loads and runs its whole kernel, then `done` holds: each
        // core replays to just past its `done` (first high on recorded cycle 1 389 with
        // seed 11 on the 4x4, two waves of CTAs; 1 387 on the 4x4 with two-level fetch;
        // 1 099 on the 2x2, four waves; 991 on the 8x8, one wave: `weft sim PRESET
        // --seed 11 --vcd FILE`); more would replay the idle core.
        "simt_core_4x4" | "simt_core_4x4_two_level" => 1_425,
        "simt_core_2x2" => 1_125,
        "simt_core_8x8" => 1_025,
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
