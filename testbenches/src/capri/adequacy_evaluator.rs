//! Adequacy evaluator bench (SPEC §3.1): combinational, every cycle a random CTA mask.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::{bits_from_rows, small};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::capri::adequacy_evaluator::AdequacyEvaluator;
use weft_sim::capri::adequacy_evaluator::evaluate;

/// Random CTA masks: dense, sparse, empty warps, identical rows (`tx == 0`-like).
pub fn random_cta_mask(rng: &mut ChaCha8Rng, warps: usize, lanes: usize) -> Vec<u64> {
    let bits = lane_mask(lanes);
    let style = rng.gen_range(0..6);
    let same = rng.gen::<u64>() & bits;
    (0..warps)
        .map(|_| match style {
            0 => rng.gen::<u64>() & bits,
            1 => rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>() & bits,
            2 => same,
            3 => {
                if rng.gen_bool(0.5) {
                    bits
                } else {
                    0
                }
            }
            4 => (1u64 << rng.gen_range(0..lanes)) & bits,
            _ => {
                if rng.gen_bool(0.3) {
                    rng.gen::<u64>() & bits
                } else {
                    0
                }
            }
        })
        .collect()
}

pub fn lane_mask(lanes: usize) -> u64 {
    if lanes == 64 {
        u64::MAX
    } else {
        (1 << lanes) - 1
    }
}

pub struct AdequacyEvaluatorBench<
    const WARPS: usize,
    const LANES: usize,
    const N: usize,
    const CW: usize,
> {
    pub uut: AdequacyEvaluator<WARPS, LANES, N, CW>,
    pub mask: Vec<u64>,
}

impl<const WARPS: usize, const LANES: usize, const N: usize, const CW: usize> crate::presets::Tested
    for AdequacyEvaluator<WARPS, LANES, N, CW>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![("CTA_WARPS", WARPS), ("LANES", LANES)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(AdequacyEvaluatorBench::<WARPS, LANES, N, CW>::default())
    }
    fn properties() -> Option<crate::presets::Properties> {
        Some(crate::presets::Properties {
            harness: include_str!("adequacy_evaluator.props.v"),
            planted: PLANTED,
        })
    }
}

impl<const WARPS: usize, const LANES: usize, const N: usize, const CW: usize> Default
    for AdequacyEvaluatorBench<WARPS, LANES, N, CW>
{
    fn default() -> Self {
        let mut uut = AdequacyEvaluator::default();
        uut.connect_all();
        AdequacyEvaluatorBench {
            uut,
            mask: vec![0; WARPS],
        }
    }
}

impl<const WARPS: usize, const LANES: usize, const N: usize, const CW: usize>
    AdequacyEvaluatorBench<WARPS, LANES, N, CW>
{
    pub fn apply(&mut self, mask: Vec<u64>) {
        self.uut.cta_mask.next = bits_from_rows(&mask, LANES);
        self.mask = mask;
    }
}

impl<const WARPS: usize, const LANES: usize, const N: usize, const CW: usize> Bench
    for AdequacyEvaluatorBench<WARPS, LANES, N, CW>
{
    crate::bench_rtl_access!(combinational);
    fn drive(&mut self, _cycle: u64, rng: &mut ChaCha8Rng) {
        let m = random_cta_mask(rng, WARPS, LANES);
        self.apply(m);
    }
    fn check(&mut self) -> Result<(), Mismatch> {
        let want = evaluate(&self.mask, LANES);
        let min = small(self.uut.min_warps.val()) as usize;
        let active = small(self.uut.active_warps.val()) as usize;
        expect("min_warps", want.min_warps, min)?;
        expect("active_warps", want.active_warps, active)?;
        expect("adequate", want.adequate, self.uut.adequate.val())?;
        contract("min_warps <= active_warps", min <= active, || {
            format!("{min} > {active}")
        })?;
        // adequate exactly when compaction removes a warp: the compactor's group count.
        let mut held = self.mask.clone();
        let mut groups = 0;
        while held.iter().any(|&r| r != 0) {
            let g = weft_sim::lib::column_compactor::pick(&held, LANES, |_| true);
            weft_sim::lib::column_compactor::clear(&mut held, &g);
            groups += 1;
        }
        contract(
            "adequate == (compaction emits fewer warps than are active)",
            self.uut.adequate.val() == (groups < active),
            || format!("{groups} groups, {active} active"),
        )
    }
    fn tick(&mut self) -> Result<(), Mismatch> {
        Ok(())
    }
}

/// Bugs planted in the exported Verilog (of `adequacy_evaluator_3x4`), each caught by
/// the property named.
const PLANTED: &[(&str, &str, &str)] = &[
    (
        "p_min_warps_is_largest_lane_popcount",
        "min_acc = zero_count;",
        "min_acc = one;",
    ),
    (
        "p_active_warps_counts_warps_with_a_thread",
        "active_acc = zero_count;",
        "active_acc = one;",
    ),
    (
        "p_adequate_when_compaction_saves_a_warp",
        "adequate = min_acc < active_acc;",
        "adequate = min_acc <= active_acc;",
    ),
];
