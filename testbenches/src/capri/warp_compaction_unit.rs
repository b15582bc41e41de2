//! WCU bench (SPEC §3.2): RTL vs model; conservation, lanes kept, bypassed threads
//! never compacted, the warp count equals the evaluator's `min_warps`. The update mask
//! is per thread: the stimulus bypasses whole rows, any subset of a row, or threads
//! scattered over the CTA as a compacted warp's would be.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::capri::adequacy_evaluator::random_cta_mask;
use crate::convert::{bits_from_rows, fields_from_bits, small};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::capri::warp_compaction_unit::WarpCompactionUnit;
use weft_sim::capri::adequacy_evaluator::evaluate;
use weft_sim::capri::warp_compaction_unit::WarpCompactionUnit as Model;

/// A random per-thread update mask for `mask`: every thread waits, whole rows bypass
/// (the paper's per-warp case), random subsets of rows bypass, or one or two warps
/// formed from the active threads (a compacted warp: one thread per lane, from any
/// rows) bypass.
pub fn random_umask(rng: &mut ChaCha8Rng, mask: &[u64], lanes: usize) -> Vec<u64> {
    let bits = crate::capri::adequacy_evaluator::lane_mask(lanes);
    match rng.gen_range(0..5) {
        0 => vec![bits; mask.len()],
        1 => mask
            .iter()
            .map(|_| if rng.gen_bool(0.5) { bits } else { 0 })
            .collect(),
        2 => mask
            .iter()
            .map(|_| match rng.gen_range(0..3) {
                0 => bits,
                1 => 0,
                _ => rng.gen::<u64>() & bits,
            })
            .collect(),
        _ => {
            let mut umask = vec![bits; mask.len()];
            for _ in 0..rng.gen_range(1..=2) {
                // Each lane's thread from a random row that has one there.
                for c in 0..lanes {
                    let rows: Vec<usize> = (0..mask.len())
                        .filter(|&r| mask[r] >> c & 1 == 1 && rng.gen_bool(0.7))
                        .collect();
                    if !rows.is_empty() {
                        umask[rows[rng.gen_range(0..rows.len())]] &= !(1 << c);
                    }
                }
            }
            umask
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct WcuInputs {
    pub reset: bool,
    pub load: bool,
    pub mask: Vec<u64>,
    /// One lane mask per warp: 1 = the thread waited.
    pub umask: Vec<u64>,
}

pub struct WarpCompactionUnitBench<
    const WARPS: usize,
    const LANES: usize,
    const N: usize,
    const RW: usize,
    const GW: usize,
    const CW: usize,
> {
    pub uut: WarpCompactionUnit<WARPS, LANES, N, RW, GW, CW>,
    pub model: Model,
    pub inputs: WcuInputs,
    loaded: Vec<u64>,
    umask: Vec<u64>,
    covered: Vec<u64>,
    emitted: usize,
}

impl<
        const WARPS: usize,
        const LANES: usize,
        const N: usize,
        const RW: usize,
        const GW: usize,
        const CW: usize,
    > crate::presets::Tested for WarpCompactionUnit<WARPS, LANES, N, RW, GW, CW>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![("CTA_WARPS", WARPS), ("LANES", LANES)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(WarpCompactionUnitBench::<WARPS, LANES, N, RW, GW, CW>::default())
    }
    fn properties() -> Option<crate::presets::Properties> {
        // The harness names the compactor's row registers of up to eight CTA warps.
        (WARPS <= 8).then_some(crate::presets::Properties {
            harness: include_str!("warp_compaction_unit.props.v"),
            planted: PLANTED,
        })
    }
}

/// Bugs planted in the exported Verilog (of `warp_compaction_unit_3x4`), each caught
/// by the property named. A property other than an invariant (`p_inv_*`) is caught by
/// its own clause: its bug leaves the ghost threads tied to the compactor's rows and the
/// compacted warps counted (`tests/prove.rs` checks that the invariants still hold).
const PLANTED: &[(&str, &str, &str)] = &[
    // Compacted threads are never cleared: the rows held are not the threads left.
    (
        "p_inv_tied",
        "compactor$take = 1'b1;",
        "compactor$take = 1'b0;",
    ),
    // Bypassed threads loaded with those that wait.
    (
        "p_inv_tied",
        "waiting = cta_mask & umask;",
        "waiting = cta_mask;",
    ),
    // One source warp per compacted warp: no compaction, more warps than the minimum.
    (
        "p_inv_counted",
        "compactor$one_row = 1'b0;",
        "compactor$one_row = 1'b1;",
    ),
    // Every compacted warp carries lane 0, with or without a thread there (its source
    // reads warp 0).
    (
        "p_threads_conserved",
        "warp_mask = compactor$group_mask;",
        "warp_mask = compactor$group_mask | {3'b0, compactor$group_valid};",
    ),
    // The last compacted warp is never shown, nor taken: its threads wait forever.
    (
        "p_valid_while_pending",
        "compactor$take = 1'b1;\n        compactor$flush = 1'b0;\n        warp_valid = compactor$group_valid;",
        "compactor$take = ~compactor$group_last;\n        compactor$flush = 1'b0;\n        warp_valid = compactor$group_valid & ~compactor$group_last;",
    ),
    // Lane 3 reports warp 1 when inactive.
    (
        "p_inactive_lanes_warp_zero",
        "lane_field = zero_rows;\n        if (pick_row$0[3]) begin",
        "lane_field = row_top$1;\n        if (pick_row$0[3]) begin",
    ),
    // `warp_last` is never set.
    (
        "p_last_takes_the_rest",
        "warp_last = compactor$group_valid & compactor$group_last;",
        "warp_last = 1'b0;",
    ),
    // Every compacted warp is marked last: the CTA's compaction ends after one warp.
    (
        "p_compacted_warps_minimum",
        "warp_last = compactor$group_valid & compactor$group_last;",
        "warp_last = compactor$group_valid;",
    ),
    (
        "p_warps_needed",
        "needed$d = evaluator$min_warps;",
        "needed$d = evaluator$active_warps;",
    ),
    (
        "p_waiting_warps",
        "waiting_count$d = evaluator$active_warps;",
        "waiting_count$d = evaluator$min_warps;",
    ),
    (
        "p_saves_warps",
        "saves$d = evaluator$adequate;",
        "saves$d = 1'b0;",
    ),
];

impl<
        const WARPS: usize,
        const LANES: usize,
        const N: usize,
        const RW: usize,
        const GW: usize,
        const CW: usize,
    > Default for WarpCompactionUnitBench<WARPS, LANES, N, RW, GW, CW>
{
    fn default() -> Self {
        let mut uut = WarpCompactionUnit::default();
        uut.connect_all();
        WarpCompactionUnitBench {
            uut,
            model: Model::new(WARPS, LANES),
            inputs: WcuInputs {
                mask: vec![0; WARPS],
                umask: vec![0; WARPS],
                ..Default::default()
            },
            loaded: vec![0; WARPS],
            umask: vec![0; WARPS],
            covered: vec![0; WARPS],
            emitted: 0,
        }
    }
}

impl<
        const WARPS: usize,
        const LANES: usize,
        const N: usize,
        const RW: usize,
        const GW: usize,
        const CW: usize,
    > WarpCompactionUnitBench<WARPS, LANES, N, RW, GW, CW>
{
    pub fn apply(&mut self, i: WcuInputs) {
        self.uut.reset.next = i.reset;
        self.uut.load.next = i.load;
        self.uut.cta_mask.next = bits_from_rows(&i.mask, LANES);
        self.uut.umask.next = bits_from_rows(&i.umask, LANES);
        self.inputs = i;
    }
}

impl<
        const WARPS: usize,
        const LANES: usize,
        const N: usize,
        const RW: usize,
        const GW: usize,
        const CW: usize,
    > Bench for WarpCompactionUnitBench<WARPS, LANES, N, RW, GW, CW>
{
    crate::bench_rtl_access!(clocked);
    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let busy = self.model.outputs().valid;
        let mask = random_cta_mask(rng, WARPS, LANES);
        let umask = random_umask(rng, &mask, LANES);
        self.apply(WcuInputs {
            reset: cycle == 0 || rng.gen_ratio(1, 500),
            load: rng.gen_ratio(if busy { 3 } else { 30 }, 100),
            mask,
            umask,
        });
    }
    fn check(&mut self) -> Result<(), Mismatch> {
        let want = self.model.outputs();
        let got_mask = small(self.uut.warp_mask.val());
        let got_src = fields_from_bits(self.uut.warp_src.val(), RW);
        expect("warp_valid", want.valid, self.uut.warp_valid.val())?;
        expect("warp_mask", want.group.lanes, got_mask)?;
        expect("warp_src", &want.group.rows, &got_src)?;
        expect("warp_last", want.last, self.uut.warp_last.val())?;
        expect(
            "warps_needed",
            want.warps_needed as u64,
            small(self.uut.warps_needed.val()),
        )?;
        expect(
            "waiting_warps",
            want.waiting_warps as u64,
            small(self.uut.waiting_warps.val()),
        )?;
        expect("saves_warps", want.saves_warps, self.uut.saves_warps.val())?;
        if self.uut.warp_valid.val() {
            for (c, &w) in got_src.iter().enumerate() {
                if got_mask >> c & 1 == 1 {
                    contract(
                        "a bypassed thread is never compacted",
                        self.umask[w] >> c & 1 == 1,
                        || format!("lane {c} from warp {w}, umask {:x?}", self.umask),
                    )?;
                    contract(
                        "a compacted thread was loaded, in its own lane",
                        self.loaded[w] >> c & 1 == 1,
                        || format!("warp {w} lane {c}"),
                    )?;
                    contract(
                        "no thread compacted twice",
                        self.covered[w] >> c & 1 == 0,
                        || format!("warp {w} lane {c}"),
                    )?;
                } else {
                    contract("inactive lanes carry warp 0", w == 0, || {
                        format!("lane {c}")
                    })?;
                }
            }
        }
        Ok(())
    }
    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs.clone();
        let out = self.model.outputs();
        if i.reset {
            self.loaded = vec![0; WARPS];
            self.covered = vec![0; WARPS];
            self.umask = vec![0; WARPS];
            self.emitted = 0;
        } else if i.load {
            let bits = crate::capri::adequacy_evaluator::lane_mask(LANES);
            self.loaded = i.mask.iter().map(|&m| m & bits).collect();
            self.umask = i.umask.clone();
            self.covered = vec![0; WARPS];
            self.emitted = 0;
        } else if out.valid {
            for c in 0..LANES {
                if out.group.lanes >> c & 1 == 1 {
                    self.covered[out.group.rows[c]] |= 1 << c;
                }
            }
            self.emitted += 1;
            if out.last {
                let waiting: Vec<u64> =
                    (0..WARPS).map(|w| self.loaded[w] & self.umask[w]).collect();
                let e = evaluate(&waiting, LANES);
                contract(
                    "compacted warps == evaluator min_warps of the waiting warps",
                    self.emitted == e.min_warps && out.warps_needed == e.min_warps,
                    || format!("{} emitted, min_warps {}", self.emitted, e.min_warps),
                )?;
                contract(
                    "every waiting thread compacted exactly once",
                    self.covered == waiting,
                    || format!("{:x?} vs {:x?}", self.covered, waiting),
                )?;
            }
        }
        self.model.clock(i.reset, i.load, &i.mask, &i.umask);
        Ok(())
    }
}
