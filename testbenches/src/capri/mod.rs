//! Benches of the TBC and CAPRI blocks (SPEC §3).
use crate::presets::{verilog_of, Preset};
use weft_hdl::presets::{
    AdequacyEvaluator3x4, AdequacyEvaluator8x32, CapriDecisionLogic, Capt32, Capt8, Capt8Counter2,
    Capt8Sticky, TbcStack3x4, TbcStack8x32, WarpCompactionUnit3x4, WarpCompactionUnit8x32,
};

pub mod adequacy_evaluator;
pub mod capri_decision;
pub mod capt;
pub mod tbc_stack;
pub mod warp_compaction_unit;

pub fn presets() -> Vec<Preset> {
    vec![
        Preset {
            name: "adequacy_evaluator",
            summary: "CAPRI compaction-adequacy evaluator, 8 warps x 32 lanes, combinational (CAPRI §3.3, Figure 8)",
            params: &[("CTA_WARPS", 8), ("LANES", 32)],
            verilog: verilog_of::<AdequacyEvaluator8x32>,
            bench: || Box::new(adequacy_evaluator::AdequacyEvaluatorBench::<8, 32, 256, 4>::default()),
        },
        Preset {
            name: "adequacy_evaluator_3x4",
            summary: "CAPRI compaction-adequacy evaluator, 3 warps x 4 lanes (CAPRI Figures 6-8)",
            params: &[("CTA_WARPS", 3), ("LANES", 4)],
            verilog: verilog_of::<AdequacyEvaluator3x4>,
            bench: || Box::new(adequacy_evaluator::AdequacyEvaluatorBench::<3, 4, 12, 2>::default()),
        },
        Preset {
            name: "warp_compaction_unit",
            summary: "TBC/CAPRI warp compaction unit with update mask, 8 warps x 32 lanes (CAPRI §2.2, §3.3)",
            params: &[("CTA_WARPS", 8), ("LANES", 32)],
            verilog: verilog_of::<WarpCompactionUnit8x32>,
            bench: || Box::new(warp_compaction_unit::WarpCompactionUnitBench::<8, 32, 256, 3, 96, 4>::default()),
        },
        Preset {
            name: "warp_compaction_unit_3x4",
            summary: "TBC/CAPRI warp compaction unit, 3 warps x 4 lanes (CAPRI Figures 3, 7)",
            params: &[("CTA_WARPS", 3), ("LANES", 4)],
            verilog: verilog_of::<WarpCompactionUnit3x4>,
            bench: || Box::new(warp_compaction_unit::WarpCompactionUnitBench::<3, 4, 12, 2, 8, 2>::default()),
        },
        Preset {
            name: "capt",
            summary: "CAPRI prediction table, 32 entries, 1b-Latest, LRU (CAPRI §3.1, §4)",
            params: &[("ENTRIES", 32), ("HISTORY", 0)],
            verilog: verilog_of::<Capt32>,
            bench: || Box::new(capt::CaptBench::<32, 0, 1, 5>::default()),
        },
        Preset {
            name: "capt_8",
            summary: "CAPRI prediction table, 8 entries, 1b-Latest: 272 bits + LRU (CAPRI §5.5)",
            params: &[("ENTRIES", 8), ("HISTORY", 0)],
            verilog: verilog_of::<Capt8>,
            bench: || Box::new(capt::CaptBench::<8, 0, 1, 3>::default()),
        },
        Preset {
            name: "capt_8_sticky",
            summary: "CAPRI prediction table, 8 entries, 1b-Sticky (CAPRI §3.3)",
            params: &[("ENTRIES", 8), ("HISTORY", 1)],
            verilog: verilog_of::<Capt8Sticky>,
            bench: || Box::new(capt::CaptBench::<8, 1, 1, 3>::default()),
        },
        Preset {
            name: "capt_8_counter2",
            summary: "CAPRI prediction table, 8 entries, 2-bit saturating counters (CAPRI §3.3)",
            params: &[("ENTRIES", 8), ("HISTORY", 2)],
            verilog: verilog_of::<Capt8Counter2>,
            bench: || Box::new(capt::CaptBench::<8, 2, 2, 3>::default()),
        },
        Preset {
            name: "capri_decision",
            summary: "stall/bypass decision logic, policy TBC / TBC+ / CAPRI / WPDOM, combinational (CAPRI §3.2)",
            params: &[],
            verilog: verilog_of::<CapriDecisionLogic>,
            bench: || Box::new(capri_decision::CapriDecisionBench::default()),
        },
        Preset {
            name: "tbc_stack",
            summary: "TBC CTA-wide stack with WCnt and bypass, 8 warps x 32 lanes, 8 entries (CAPRI §2.2, §3.3)",
            params: &[("CTA_WARPS", 8), ("LANES", 32), ("DEPTH", 8), ("PCW", 32)],
            verilog: verilog_of::<TbcStack8x32>,
            bench: || Box::new(tbc_stack::TbcStackBench::<8, 32, 256, 8, 4, 4>::default()),
        },
        Preset {
            name: "tbc_stack_3x4",
            summary: "TBC CTA-wide stack, 3 warps x 4 lanes, 8 entries (CAPRI Figures 6-7)",
            params: &[("CTA_WARPS", 3), ("LANES", 4), ("DEPTH", 8), ("PCW", 32)],
            verilog: verilog_of::<TbcStack3x4>,
            bench: || Box::new(tbc_stack::TbcStackBench::<3, 4, 12, 8, 4, 2>::default()),
        },
    ]
}
