//! Slip controller bench: RTL vs model (every counter, every cycle), counters never
//! wrap, the limit bitmask is `counter >= max-slip`.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::dom::slip_controller::SlipController;
use weft_sim::dom::ones;
use weft_sim::dom::slip_controller::{SlipController as Model, SlipInputs};

pub struct SlipControllerBench<
    const LANES: usize,
    const WARPS: usize,
    const WW: usize,
    const INIT: usize,
    const STEP: usize,
> {
    pub uut: SlipController<LANES, WARPS, WW, INIT, STEP>,
    pub model: Model,
    pub inputs: SlipInputs,
}

impl<
        const LANES: usize,
        const WARPS: usize,
        const WW: usize,
        const INIT: usize,
        const STEP: usize,
    > crate::presets::Tested for SlipController<LANES, WARPS, WW, INIT, STEP>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![("LANES", LANES), ("WARPS", WARPS), ("STEP", STEP)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(SlipControllerBench::<LANES, WARPS, WW, INIT, STEP>::default())
    }
    /// The harness reads the counters of up to four warps and states max-slip's reset
    /// value as 8 (every preset's); `STEP` is its parameter.
    fn properties() -> Option<crate::presets::Properties> {
        (WARPS <= 4 && INIT == 8).then_some(crate::presets::Properties {
            harness: include_str!("slip_controller.props.v"),
            planted: PLANTED,
        })
    }
}

/// Bugs planted in the exported Verilog (of `slip_controller_1w` and, with the same
/// texts, `slip_controller_2w`), each caught by the property named. A property other
/// than the invariant `p_inv_limit_is_ge` is caught by its own clause: its bug leaves
/// every limit bit `counter >= max-slip` (`tests/prove.rs` checks that the invariant
/// still holds on it).
const PLANTED: &[(&str, &str, &str)] = &[
    // Warp 0's limit also takes the lanes whose counter is odd, below the max-slip.
    (
        "p_inv_limit_is_ge",
        "limit$0$d = ge;",
        "limit$0$d = ge | row$0;",
    ),
    // `forbid` looks at the executed threads instead of the considered ones.
    (
        "p_forbid_at_limit",
        "forbid = |(cur_limit & considered);",
        "forbid = |(cur_limit & exec_mask);",
    ),
    // `grow` is reported on a clear.
    (
        "p_rule_select",
        "grow = grow_now & ~clear;",
        "grow = grow_now;",
    ),
    // Threads that missed also count up on grow.
    (
        "p_grow_counts_hitters",
        "carry = h & ~sat;",
        "carry = e & ~sat;",
    ),
    // Considered threads that did not execute are not counted down on shrink.
    (
        "p_shrink_counts_down",
        "borrow = considered & ~h & nz;",
        "borrow = e & ~h & nz;",
    ),
    // Warp 0's counters are written for any warp index, also one out of range.
    (
        "p_idle_keeps",
        "if (warp == warp_id$0) begin\n            p0$0$d = nxt$0;",
        "if (1'b1) begin\n            p0$0$d = nxt$0;",
    ),
    // A clear leaves the counters' bit 0.
    ("p_clear_reset", "nxt$0 = zero_lanes;", "nxt$0 = cur$0;"),
    // Raise and lower together lower max-slip.
    (
        "p_max_slip_rule",
        "if (lower & ~raise) begin",
        "if (lower) begin",
    ),
    // A lower below STEP wraps instead of saturating at 0 (reached from reset in two
    // lowers; the top's saturation is 31 raises away, past the bugs' search depth).
    (
        "p_max_slip_rule",
        "if (max_now >= step8) begin",
        "if (1'b1) begin",
    ),
];

impl<
        const LANES: usize,
        const WARPS: usize,
        const WW: usize,
        const INIT: usize,
        const STEP: usize,
    > Default for SlipControllerBench<LANES, WARPS, WW, INIT, STEP>
{
    fn default() -> Self {
        let mut uut = SlipController::default();
        uut.connect_all();
        SlipControllerBench {
            uut,
            model: Model::new(LANES, WARPS, INIT as u8, STEP as u8),
            inputs: SlipInputs::default(),
        }
    }
}

impl<
        const LANES: usize,
        const WARPS: usize,
        const WW: usize,
        const INIT: usize,
        const STEP: usize,
    > SlipControllerBench<LANES, WARPS, WW, INIT, STEP>
{
    pub fn apply(&mut self, i: SlipInputs) {
        self.uut.reset.next = i.reset;
        self.uut.warp.next = (i.warp as u64).into();
        self.uut.clear.next = i.clear;
        self.uut.mem_op.next = i.event;
        self.uut.considered.next = i.considered.into();
        self.uut.exec_mask.next = i.exec.into();
        self.uut.hit_mask.next = i.hit.into();
        self.uut.slipped.next = i.slipped;
        self.uut.raise.next = i.raise;
        self.uut.lower.next = i.lower;
        self.inputs = i;
    }

    /// The RTL's counters of warp `w`, one per lane.
    pub fn counters(&self, w: usize) -> Vec<u8> {
        let planes: [(Bits<LANES>, usize); 8] = [
            (self.uut.p0[w].q.val(), 0),
            (self.uut.p1[w].q.val(), 1),
            (self.uut.p2[w].q.val(), 2),
            (self.uut.p3[w].q.val(), 3),
            (self.uut.p4[w].q.val(), 4),
            (self.uut.p5[w].q.val(), 5),
            (self.uut.p6[w].q.val(), 6),
            (self.uut.p7[w].q.val(), 7),
        ];
        (0..LANES)
            .map(|t| {
                planes
                    .iter()
                    .fold(0u8, |c, (p, b)| c | (u8::from(p.get_bit(t)) << b))
            })
            .collect()
    }
}

impl<
        const LANES: usize,
        const WARPS: usize,
        const WW: usize,
        const INIT: usize,
        const STEP: usize,
    > Bench for SlipControllerBench<LANES, WARPS, WW, INIT, STEP>
{
    crate::bench_rtl_access!(clocked);
    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let lanes = ones(LANES);
        let considered = if rng.gen_bool(0.7) {
            lanes
        } else {
            rng.gen::<u64>() & lanes
        };
        // Hits biased per lane so that some threads run ahead and counters climb.
        let bias = (cycle / 3000).is_multiple_of(2);
        let hit = (0..LANES).fold(0u64, |m, t| {
            let p = if bias && t % 2 == 0 { 0.9 } else { 0.5 };
            m | (u64::from(rng.gen_bool(p)) << t)
        });
        let warp = rng.gen_range(0..(1usize << WW).min(WARPS + 1));
        let exec = if rng.gen_bool(0.6) {
            considered
        } else {
            rng.gen::<u64>() & lanes
        };
        self.apply(SlipInputs {
            reset: cycle == 0 || rng.gen_ratio(1, 20_000),
            warp,
            clear: rng.gen_ratio(1, 500),
            event: rng.gen_bool(0.6),
            considered,
            exec,
            hit,
            slipped: rng.gen_bool(0.8),
            raise: rng.gen_ratio(1, 50),
            lower: rng.gen_ratio(1, 60),
        });
    }
    fn check(&mut self) -> Result<(), Mismatch> {
        let want = self.model.outputs(&self.inputs);
        expect(
            "limit_mask",
            want.limit_mask,
            small(self.uut.limit_mask.val()),
        )?;
        expect("forbid", want.forbid, self.uut.forbid.val())?;
        expect("tail", want.tail, small(self.uut.tail.val()))?;
        expect("grow", want.grow, self.uut.grow.val())?;
        expect("shrink", want.shrink, self.uut.shrink.val())?;
        expect(
            "max_slip",
            want.max_slip as u64,
            small(self.uut.max_slip.val()),
        )?;
        for w in 0..WARPS {
            expect(
                &format!("counters of warp {w}"),
                &self.model.counters[w],
                &self.counters(w),
            )?;
            let lim = (0..LANES)
                .filter(|&t| self.model.counters[w][t] >= self.model.max_slip)
                .fold(0, |m, t| m | 1 << t);
            contract(
                "limit bit == counter >= max-slip",
                self.model.limit[w] == lim,
                || format!("warp {w}"),
            )?;
        }
        contract(
            "grow and shrink exclude each other",
            !(want.grow && want.shrink),
            || "both".into(),
        )
    }
    fn tick(&mut self) -> Result<(), Mismatch> {
        let before = self.model.counters.clone();
        let i = self.inputs.clone();
        self.model.clock(&i);
        if !i.reset && !i.clear {
            for (w, row) in before.iter().enumerate() {
                for (t, &c) in row.iter().enumerate() {
                    let n = self.model.counters[w][t];
                    contract(
                        "counters move by at most one and never wrap",
                        (n as i32 - c as i32).abs() <= 1,
                        || format!("warp {w} lane {t}: {c} -> {n}"),
                    )?;
                    contract(
                        "threads outside `considered` are never counted",
                        i.considered >> t & 1 == 1 || n == c || w != i.warp,
                        || format!("lane {t}"),
                    )?;
                }
            }
        }
        Ok(())
    }
}
