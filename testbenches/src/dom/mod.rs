//! Benches of the diverge-on-miss blocks (`diverge-on-miss.txt`).
use crate::presets::{verilog_of, Preset};
use weft_hdl::presets::{
    AdaptiveDiff100k, McbEntry32, Mdt32, SlipController32x1, SlipController32x16,
    SlipController32x2, SlipController32x4, WarpMemoryDivergence32,
};

pub mod adaptive_diff;
pub mod mcb_entry;
pub mod mdt;
pub mod slip_controller;
pub mod warp_memory_divergence;

pub fn presets() -> Vec<Preset> {
    vec![
        Preset {
            name: "mdt",
            summary: "Diverge on miss: one warp's Memory Divergence Table, M = 2, 32 lanes (DoM §4.1, Table 1)",
            params: &[("LANES", 32), ("M", 2), ("PCW", 32)],
            verilog: verilog_of::<Mdt32>,
            bench: || Box::new(mdt::MdtBench::<32, 2, 32>::default()),
        },
        Preset {
            name: "mcb_entry",
            summary: "Diverge on miss: one Memory Coalescing Buffer entry, 32 lanes, 32-byte lines (DoM §3.2, §4.1)",
            params: &[("LANES", 32), ("AW", 32), ("OB", 5), ("DW", 32)],
            verilog: verilog_of::<McbEntry32>,
            bench: || Box::new(mcb_entry::McbEntryBench::<32, 32, 5, 32, 1024, 1024>::default()),
        },
        Preset {
            name: "slip_controller_1w",
            summary: "Diverge on miss: adaptive slip controller, 1 warp x 32 lanes (DoM §5.1, Table 1)",
            params: &[("LANES", 32), ("WARPS", 1)],
            verilog: verilog_of::<SlipController32x1>,
            bench: || Box::new(slip_controller::SlipControllerBench::<32, 1, 1, 8>::default()),
        },
        Preset {
            name: "slip_controller_2w",
            summary: "Diverge on miss: adaptive slip controller, 2 warps x 32 lanes (DoM §5.1, Table 1)",
            params: &[("LANES", 32), ("WARPS", 2)],
            verilog: verilog_of::<SlipController32x2>,
            bench: || Box::new(slip_controller::SlipControllerBench::<32, 2, 1, 8>::default()),
        },
        Preset {
            name: "slip_controller_4w",
            summary: "Diverge on miss: adaptive slip controller, 4 warps x 32 lanes (DoM §5.1, Table 1)",
            params: &[("LANES", 32), ("WARPS", 4)],
            verilog: verilog_of::<SlipController32x4>,
            bench: || Box::new(slip_controller::SlipControllerBench::<32, 4, 2, 8>::default()),
        },
        Preset {
            name: "slip_controller_16w",
            summary: "Diverge on miss: adaptive slip controller, 16 warps x 32 lanes (DoM §5.1, Table 1)",
            params: &[("LANES", 32), ("WARPS", 16)],
            verilog: verilog_of::<SlipController32x16>,
            bench: || Box::new(slip_controller::SlipControllerBench::<32, 16, 4, 8>::default()),
        },
        Preset {
            name: "adaptive_diff",
            summary: "Diverge on miss: adaptive diff max-slip control, 100 000-cycle period (DoM §5.2)",
            params: &[("PERIOD", 100_000), ("IDLE_MAX", 1000), ("BW_MIN", 50_000), ("STALL_MIN", 25_000)],
            verilog: verilog_of::<AdaptiveDiff100k>,
            bench: || Box::new(adaptive_diff::AdaptiveDiffBench::<100000, 1000, 50000, 25000, 17>::default()),
        },
        Preset {
            name: "warp_memory_divergence",
            summary: "Diverge on miss for one 32-lane warp: MDT + MCB + slip counters, M = 2 (DoM §4–5)",
            params: &[("LANES", 32), ("M", 2), ("PCW", 32), ("AW", 32), ("OB", 5), ("DW", 32)],
            verilog: verilog_of::<WarpMemoryDivergence32>,
            bench: || {
                Box::new(warp_memory_divergence::WarpMemoryDivergenceBench::<32, 2, 32, 32, 5, 32, 1024, 1024, 8>::default())
            },
        },
    ]
}
