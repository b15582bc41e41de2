//! Benches of the TBC and CAPRI blocks (SPEC §3).
use crate::presets::Preset;
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
        Preset::of::<AdequacyEvaluator8x32>(
"adequacy_evaluator",
"CAPRI compaction-adequacy evaluator, 8 warps x 32 lanes, combinational (CAPRI §3.3, Figure 8)",
),
        Preset::of::<AdequacyEvaluator3x4>(
"adequacy_evaluator_3x4",
"CAPRI compaction-adequacy evaluator, 3 warps x 4 lanes (CAPRI Figures 6-8)",
),
        Preset::of::<WarpCompactionUnit8x32>(
"warp_compaction_unit",
"TBC/CAPRI warp compaction unit with update mask, 8 warps x 32 lanes (CAPRI §2.2, §3.3)",
),
        Preset::of::<WarpCompactionUnit3x4>(
"warp_compaction_unit_3x4",
"TBC/CAPRI warp compaction unit, 3 warps x 4 lanes (CAPRI Figures 3, 7)",
),
        Preset::of::<Capt32>(
"capt",
"CAPRI prediction table, 32 entries, 1b-Latest, LRU (CAPRI §3.1, §4)",
),
        Preset::of::<Capt8>(
"capt_8",
"CAPRI prediction table, 8 entries, 1b-Latest: 272 bits + LRU (CAPRI §5.5)",
),
        Preset::of::<Capt8Sticky>(
"capt_8_sticky",
"CAPRI prediction table, 8 entries, 1b-Sticky (CAPRI §3.3)",
),
        Preset::of::<Capt8Counter2>(
"capt_8_counter2",
"CAPRI prediction table, 8 entries, 2-bit saturating counters (CAPRI §3.3)",
),
        Preset::of::<CapriDecisionLogic>(
"capri_decision",
"stall/bypass decision logic, policy TBC / TBC+ / CAPRI / WPDOM, combinational (CAPRI §3.2)",
),
        Preset::of::<TbcStack8x32>(
"tbc_stack",
"TBC CTA-wide stack with WCnt and bypass, 8 warps x 32 lanes, 8 entries (CAPRI §2.2, §3.3)",
),
        Preset::of::<TbcStack3x4>(
"tbc_stack_3x4",
"TBC CTA-wide stack, 3 warps x 4 lanes, 8 entries (CAPRI Figures 6-7)",
),
    ]
}
