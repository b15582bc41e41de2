//! Warp compaction unit (WCU) of thread block compaction and CAPRI
//! (`capri-compaction-adequacy.txt` §2.2 Figure 3, §3.3; SPEC §3.2).
//!
//! Takes a CTA-wide active mask and the update mask `umask`, one bit per thread (1 = the
//! thread waited at the branch and takes part, 0 = it bypassed and keeps the warp it
//! bypassed in). The paper's UMask has one bit per warp; here compacted warps mix
//! threads of several home warps, so a bypassing warp is any set of threads and a
//! per-warp bit would drop the waiting threads that share a home row with it. The
//! shared column compactor emits one compacted warp per cycle: a lane mask plus the
//! source warp of each lane's thread. Threads never leave their lane (the register
//! file is banked per lane).
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | clock, reset | in | 1 | reset empties the unit |
//! | load | in | 1 | take `cta_mask` and `umask` on this edge (wins over emitting) |
//! | cta_mask | in | WARPS*LANES | CTA-wide active mask at the TOS, row = warp |
//! | umask | in | WARPS*LANES | threads taking part in compaction, row = warp (as `cta_mask`) |
//! | warp_valid | out | 1 | registered: a compacted warp is presented this cycle |
//! | warp_mask | out | LANES | registered: its active lanes |
//! | warp_src | out | LANES*clog2(WARPS) | registered: source warp of lane `c` at `[c*RW, c*RW+RW)`, 0 when inactive |
//! | warp_last | out | 1 | registered: the presented warp is the last one |
//! | warps_needed | out | clog2(WARPS+1) | registered from the cycle after `load`: compacted warps for that load |
//! | waiting_warps | out | clog2(WARPS+1) | registered likewise: non-empty warps among the waiting ones |
//! | saves_warps | out | 1 | registered likewise: `warps_needed < waiting_warps` (compaction removes a warp) |
//!
//! ```text
//!  cta_mask ──AND umask──┬──> column_compactor (row_enable = all) ──> warp_*
//!                        └──> adequacy_evaluator.min_warps ──> [needed] ──> warps_needed
//! ```
//!
//! Timing: the mask loaded on edge `t` presents its first compacted warp in cycle
//! `t+1` and one per cycle after that; every edge without `load` retires the presented
//! warp (no backpressure: the warp scheduler takes one new warp per cycle, §3.1).
//! `warps_needed` is valid from cycle `t+1` until the next load (0 after reset).
//!
//! Storage: `WARPS*LANES` (the compactor's mask) + `2*clog2(WARPS+1) + 1`.
//!
//! Choices where the paper is silent:
//! - The mask is loaded already ANDed with the update mask, so bypassed threads are
//!   never held and every row stays enabled (`row_enable` is per row, too coarse for
//!   a per-thread mask; no update mask is held). This keeps the compactor's
//!   `group_last` exact without a change to the shared block.
//! - `warps_needed` comes from an adequacy evaluator on the same masked mask (the
//!   largest per-lane popcount), registered at load, so it is known before the
//!   compacted warps stream out. The CTA stack uses the same count for `WCnt`.
use crate::capri::adequacy_evaluator::AdequacyEvaluator;
use crate::lib::column_compactor::ColumnCompactor;
use rust_hdl::prelude::*;

/// WCU for a CTA of `WARPS` warps of `LANES` lanes. `N = WARPS*LANES`,
/// `RW = max(1, clog2(WARPS))`, `GW = LANES*RW`, `CW = clog2(WARPS+1)`.
#[derive(LogicBlock)]
pub struct WarpCompactionUnit<
    const WARPS: usize,
    const LANES: usize,
    const N: usize,
    const RW: usize,
    const GW: usize,
    const CW: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empties the unit, `warps_needed = 0`.
    pub reset: Signal<In, Bit>,
    // load interface
    /// Take `cta_mask` and `umask` on this edge.
    pub load: Signal<In, Bit>,
    /// CTA-wide active mask, row-major (bit `w*LANES + c`).
    pub cta_mask: Signal<In, Bits<N>>,
    /// Update mask, row-major like `cta_mask`: bit `w*LANES + c` = that thread waited
    /// and takes part in compaction.
    pub umask: Signal<In, Bits<N>>,
    // compacted warp out (registered)
    /// A compacted warp is presented this cycle.
    pub warp_valid: Signal<Out, Bit>,
    /// Lanes active in the compacted warp.
    pub warp_mask: Signal<Out, Bits<LANES>>,
    /// Source warp of each active lane's thread; 0 for inactive lanes.
    pub warp_src: Signal<Out, Bits<GW>>,
    /// The presented warp is the last of this compaction.
    pub warp_last: Signal<Out, Bit>,
    /// Number of compacted warps of the last load.
    pub warps_needed: Signal<Out, Bits<CW>>,
    /// Non-empty waiting warps of the last load (registered).
    pub waiting_warps: Signal<Out, Bits<CW>>,
    /// `warps_needed < waiting_warps`: this compaction removes a warp (registered).
    pub saves_warps: Signal<Out, Bit>,
    /// The held mask and the per-lane priority encoders.
    compactor: ColumnCompactor<WARPS, LANES, N, RW, GW>,
    /// Counts the compacted warps of the masked mask.
    evaluator: AdequacyEvaluator<WARPS, LANES, N, CW>,
    /// `warps_needed` of the last load.
    needed: DFF<Bits<CW>>,
    waiting_count: DFF<Bits<CW>>,
    saves: DFF<Bit>,
    /// `cta_mask` restricted to the threads of `umask`.
    waiting: Signal<Local, Bits<N>>,
    /// Every row enabled.
    all_rows: Constant<Bits<WARPS>>,
    zero_count: Constant<Bits<CW>>,
}

impl<
        const WARPS: usize,
        const LANES: usize,
        const N: usize,
        const RW: usize,
        const GW: usize,
        const CW: usize,
    > Default for WarpCompactionUnit<WARPS, LANES, N, RW, GW, CW>
{
    fn default() -> Self {
        assert_eq!(N, WARPS * LANES, "N must be WARPS*LANES");
        assert_eq!(RW, clog2(WARPS).max(1), "RW must be max(1, clog2(WARPS))");
        assert_eq!(GW, LANES * RW, "GW must be LANES*RW");
        assert_eq!(CW, clog2(WARPS + 1), "CW must be clog2(WARPS+1)");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            load: Default::default(),
            cta_mask: Default::default(),
            umask: Default::default(),
            warp_valid: Default::default(),
            warp_mask: Default::default(),
            warp_src: Default::default(),
            warp_last: Default::default(),
            warps_needed: Default::default(),
            waiting_warps: Default::default(),
            saves_warps: Default::default(),
            compactor: Default::default(),
            evaluator: Default::default(),
            needed: Default::default(),
            waiting_count: Default::default(),
            saves: Default::default(),
            waiting: Default::default(),
            all_rows: Constant::new(Bits::<WARPS>::mask()),
            zero_count: Constant::new(Bits::default()),
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
    > Logic for WarpCompactionUnit<WARPS, LANES, N, RW, GW, CW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, needed, waiting_count, saves);
        self.waiting.next = self.cta_mask.val() & self.umask.val();
        self.evaluator.cta_mask.next = self.waiting.val();
        self.compactor.clock.next = self.clock.val();
        self.compactor.reset.next = self.reset.val();
        self.compactor.load.next = self.load.val();
        self.compactor.mask_in.next = self.waiting.val();
        self.compactor.row_enable.next = self.all_rows.val();
        self.compactor.one_row.next = false;
        self.compactor.take.next = true;
        self.compactor.flush.next = false;
        self.warp_valid.next = self.compactor.group_valid.val();
        self.warp_mask.next = self.compactor.group_mask.val();
        self.warp_src.next = self.compactor.group_rows.val();
        self.warp_last.next = self.compactor.group_valid.val() & self.compactor.group_last.val();
        self.warps_needed.next = self.needed.q.val();
        self.waiting_warps.next = self.waiting_count.q.val();
        self.saves_warps.next = self.saves.q.val();
        if self.load.val() {
            self.needed.d.next = self.evaluator.min_warps.val();
            self.waiting_count.d.next = self.evaluator.active_warps.val();
            self.saves.d.next = self.evaluator.adequate.val();
        }
        if self.reset.val() {
            self.needed.d.next = self.zero_count.val();
            self.waiting_count.d.next = self.zero_count.val();
            self.saves.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::{WarpCompactionUnit3x4, WarpCompactionUnit8x32};

    #[test]
    fn synthesizes() {
        let mut uut = WarpCompactionUnit8x32::default();
        uut.connect_all();
        yosys_validate("warp_compaction_unit", &generate_verilog(&uut)).unwrap();
    }

    #[test]
    fn figure_3_two_warps_compact_into_one() {
        let mut uut = WarpCompactionUnit3x4::default();
        uut.connect_all();
        let edge = |uut: &mut WarpCompactionUnit3x4| {
            uut.clock.next = true.into();
            assert!(simulate(uut, 100));
            uut.clock.next = false.into();
            assert!(simulate(uut, 100));
        };
        // W0 = 0xxx (lane 0), W1 = xx67 (lanes 2, 3), every thread of W0, W1 waited.
        uut.load.next = true;
        uut.cta_mask.next = (0b0001u64 | (0b1100 << 4)).into();
        uut.umask.next = 0x0ffu64.into();
        assert!(simulate(&mut uut, 100));
        edge(&mut uut);
        uut.load.next = false;
        assert!(simulate(&mut uut, 100));
        assert!(uut.warp_valid.val() && uut.warp_last.val());
        assert_eq!(uut.warp_mask.val(), Bits::<4>::from(0b1101));
        // lanes 0..3 from warps 0, -, 1, 1 (2 bits each)
        assert_eq!(uut.warp_src.val(), Bits::<8>::from(0b01_01_00_00));
        assert_eq!(uut.warps_needed.val(), Bits::<2>::from(1));
        edge(&mut uut);
        assert!(!uut.warp_valid.val());
    }
}
