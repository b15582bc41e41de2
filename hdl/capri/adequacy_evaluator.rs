//! Compaction-adequacy evaluator (the "Predictor" inside the WCU): how many warps a
//! CTA-wide active mask needs after full compaction, how many it occupies now, and
//! whether compaction would remove at least one warp (`capri-compaction-adequacy.txt`
//! §3.3, Figure 8, §5.5; SPEC §3.1).
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | cta_mask | in | WARPS*LANES | CTA-wide active mask at the TOS, row = warp (SPEC §0) |
//! | min_warps | out | clog2(WARPS+1) | largest per-lane popcount = warps after full compaction |
//! | active_warps | out | clog2(WARPS+1) | warps with at least one active thread |
//! | adequate | out | 1 | `min_warps < active_warps` |
//!
//! ```text
//!   W0  0 1 2 3        per-lane counts are kept in thermometer code, one LANES-bit
//!   W1  4 x x 7        vector per level: ge[k] = lanes with more than k threads.
//!   W2  8 9 x x        Adding a row ripples it up the levels (a unary increment):
//!       3 2 1 2           carry = row; for k: (ge[k], carry) = (ge[k]|carry, ge[k]&carry)
//!   min_warps = #{k : ge[k] != 0} = 3, active_warps = 3, adequate = 0 (Figure 7(d))
//! ```
//!
//! Latency: combinational. Storage: none. Cost: `WARPS*WARPS` LANES-wide AND/OR pairs
//! (bit-parallel across lanes, no per-lane adders), `WARPS` ORs for the row flags and
//! two `clog2(WARPS+1)`-bit counts; all warps are seen, bypassed or not (§3.3).
//!
//! Choices where the paper is silent:
//! - Per-lane popcounts are never formed as binary numbers: the maximum of the lane
//!   popcounts is the number of non-empty threshold vectors, which is cheaper than
//!   `LANES` popcounts and a max tree, and gives the same count.
//! - An empty mask gives `min_warps = active_warps = 0`, not adequate.
use rust_hdl::prelude::*;

/// Adequacy evaluator for a CTA of `WARPS` warps of `LANES` lanes. `N = WARPS*LANES`,
/// `CW = clog2(WARPS+1)`.
#[derive(LogicBlock)]
pub struct AdequacyEvaluator<
    const WARPS: usize,
    const LANES: usize,
    const N: usize,
    const CW: usize,
> {
    /// CTA-wide active mask, row-major: bit `w*LANES + c` is warp `w`, lane `c`.
    pub cta_mask: Signal<In, Bits<N>>,
    /// Warps after full compaction: the largest per-lane popcount (combinational).
    pub min_warps: Signal<Out, Bits<CW>>,
    /// Warps with at least one active thread (combinational).
    pub active_warps: Signal<Out, Bits<CW>>,
    /// `min_warps < active_warps`: compaction removes at least one warp.
    pub adequate: Signal<Out, Bit>,
    /// The row being added.
    row: Signal<Local, Bits<LANES>>,
    /// Threshold vectors: `ge[k]` = lanes holding more than `k` threads so far.
    ge: [Signal<Local, Bits<LANES>>; WARPS],
    /// Lanes whose count still rises one level.
    carry: Signal<Local, Bits<LANES>>,
    /// `ge[k] & carry` before `ge[k]` is updated.
    kept: Signal<Local, Bits<LANES>>,
    min_acc: Signal<Local, Bits<CW>>,
    active_acc: Signal<Local, Bits<CW>>,
    lanes: Constant<Bits<16>>,
    one: Constant<Bits<CW>>,
    zero_count: Constant<Bits<CW>>,
    zero_lanes: Constant<Bits<LANES>>,
}

impl<const WARPS: usize, const LANES: usize, const N: usize, const CW: usize> Default
    for AdequacyEvaluator<WARPS, LANES, N, CW>
{
    fn default() -> Self {
        assert!(WARPS >= 1 && LANES >= 1, "at least one warp and one lane");
        assert_eq!(N, WARPS * LANES, "N must be WARPS*LANES");
        assert_eq!(CW, clog2(WARPS + 1), "CW must be clog2(WARPS+1)");
        Self {
            cta_mask: Default::default(),
            min_warps: Default::default(),
            active_warps: Default::default(),
            adequate: Default::default(),
            row: Default::default(),
            ge: array_init::array_init(|_| Default::default()),
            carry: Default::default(),
            kept: Default::default(),
            min_acc: Default::default(),
            active_acc: Default::default(),
            lanes: Constant::new((LANES as u64).into()),
            one: Constant::new(1u64.into()),
            zero_count: Constant::new(Bits::default()),
            zero_lanes: Constant::new(Bits::default()),
        }
    }
}

impl<const WARPS: usize, const LANES: usize, const N: usize, const CW: usize> Logic
    for AdequacyEvaluator<WARPS, LANES, N, CW>
{
    #[hdl_gen]
    fn update(&mut self) {
        for k in 0..WARPS {
            self.ge[k].next = self.zero_lanes.val();
        }
        self.active_acc.next = self.zero_count.val();
        self.row.next = self.zero_lanes.val();
        self.carry.next = self.zero_lanes.val();
        self.kept.next = self.zero_lanes.val();
        for r in 0..WARPS {
            self.row.next = self
                .cta_mask
                .val()
                .get_bits::<LANES>(r * self.lanes.val().index());
            if self.row.val().any() {
                self.active_acc.next = self.active_acc.val() + self.one.val();
            }
            self.carry.next = self.row.val();
            for k in 0..WARPS {
                self.kept.next = self.ge[k].val() & self.carry.val();
                self.ge[k].next = self.ge[k].val() | self.carry.val();
                self.carry.next = self.kept.val();
            }
        }
        self.min_acc.next = self.zero_count.val();
        for k in 0..WARPS {
            if self.ge[k].val().any() {
                self.min_acc.next = self.min_acc.val() + self.one.val();
            }
        }
        self.min_warps.next = self.min_acc.val();
        self.active_warps.next = self.active_acc.val();
        self.adequate.next = self.min_acc.val() < self.active_acc.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::{AdequacyEvaluator3x4, AdequacyEvaluator8x32};

    #[test]
    fn synthesizes() {
        let mut uut = AdequacyEvaluator8x32::default();
        uut.connect_all();
        yosys_validate("adequacy_evaluator", &generate_verilog(&uut)).unwrap();
    }

    #[test]
    fn figure_7d_is_inadequate_and_figure_3_is_adequate() {
        let mut uut = AdequacyEvaluator3x4::default();
        uut.connect_all();
        // W0 0123, W1 4xx7, W2 89xx (bit 0 = lane 0).
        uut.cta_mask.next = (0b1111u64 | (0b1001 << 4) | (0b0011 << 8)).into();
        assert!(simulate(&mut uut, 100));
        assert_eq!(uut.min_warps.val(), Bits::<2>::from(3));
        assert_eq!(uut.active_warps.val(), Bits::<2>::from(3));
        assert!(!uut.adequate.val());
        // Figure 3: 0xxx and xx67 compact into one warp.
        uut.cta_mask.next = (0b0001u64 | (0b1100 << 4)).into();
        assert!(simulate(&mut uut, 100));
        assert_eq!(uut.min_warps.val(), Bits::<2>::from(1));
        assert_eq!(uut.active_warps.val(), Bits::<2>::from(2));
        assert!(uut.adequate.val());
    }
}
