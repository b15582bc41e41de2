//! Large-warp branch buffers: the two temporary active-mask buffers that collect a
//! branch's taken and not-taken threads over the sub-warps of a large warp (SPEC §2.2;
//! `lwm-two-level-scheduling.txt` §3.1 "How a Large Warp Handles Divergence and
//! Re-convergence", storage in §3.3).
//!
//! A large warp learns whether a branch diverged only after its last sub-warp, so each
//! sub-warp's outcome is scattered back to thread positions (row from `sub_rows`, lane
//! kept) and ORed into one of two `ROWS x LANES` buffers:
//!
//! ```text
//!   sub-warp: sub_mask 1011, sub_rows [r0 r1 r2 r3], taken 0011
//!   lane 0 -> taken[r0*LANES + 0]      lane 1 -> taken[r1*LANES + 1]
//!   lane 3 -> not_taken[r3*LANES + 3]  lane 2 inactive: ignored
//! ```
//!
//! Interface:
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | clock, reset | in | 1 | reset empties both buffers and drops a pending `done` |
//! | valid | in | 1 | a sub-warp of the branch reports its outcome this cycle |
//! | sub_mask | in | LANES | lanes active in the sub-warp (the sub-warp unit's `sub_mask`) |
//! | sub_rows | in | LANES*RW | row of lane `c`'s thread at bits `[c*RW, c*RW+RW)` (`sub_rows`) |
//! | taken | in | LANES | per-lane branch outcome; inactive lanes ignored |
//! | last | in | 1 | with `valid`: the branch's last sub-warp |
//! | done | out | 1 | registered: the buffers hold a finished branch this cycle (one cycle) |
//! | taken_mask | out | ROWS*LANES | registered: taken threads, row-major (SPEC §0) |
//! | not_taken_mask | out | ROWS*LANES | registered: not-taken threads, row-major |
//! | diverged | out | 1 | registered: `done` and both masks non-empty |
//!
//! Timing: the sub-warp presented on edge `t` with `last = 1` makes `done = 1` in cycle
//! `t+1` with the complete masks; in that cycle the buffers are read (by the large
//! warp's PC/mask update and its divergence stack) and on its closing edge they clear,
//! so a new branch may present its first sub-warp in that very cycle: its threads land
//! in emptied buffers. Throughput: one sub-warp per cycle, back-to-back branches.
//!
//! Storage: `2 x ROWS x LANES` + 1 (`done`) flip-flops: 513 for 256-thread large warps,
//! held row by row (one `LANES`-bit register per row, so an update touches narrow words).
//! With the sub-warp unit's 256-bit copy that is the paper's 256 + 512 = 768 bits.
//!
//! Choices where the paper is silent:
//! - Outputs are registered (one cycle after `last`) rather than combinational on the
//!   `last` cycle: the consumer sees stable masks from flip-flops.
//! - `taken_mask` / `not_taken_mask` show the buffers at all times (the partial sums
//!   while a branch is in flight); only `diverged` is gated by `done`.
//! - A thread presented twice in one branch is ORed into whichever buffer its outcome
//!   names; the sub-warp unit never does that (tests check the contract upstream).
//! - `valid = 0` cycles between sub-warps are allowed (pipeline bubbles).
use crate::lib::widen::Widen;
use rust_hdl::prelude::*;

/// Branch buffers for large warps of `ROWS x LANES` threads. `N = ROWS*LANES`,
/// `RW = max(1, clog2(ROWS))`, `GW = LANES*RW` (the sub-warp unit's widths).
#[derive(LogicBlock)]
pub struct BranchBuffers<
    const LANES: usize,
    const ROWS: usize,
    const N: usize,
    const RW: usize,
    const GW: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empties both buffers, `done = 0`.
    pub reset: Signal<In, Bit>,
    // sub-warp outcome in
    /// A sub-warp of the branch reports its per-lane outcome this cycle.
    pub valid: Signal<In, Bit>,
    /// Lanes active in the sub-warp; sampled with `valid`.
    pub sub_mask: Signal<In, Bits<LANES>>,
    /// Row id of each lane's thread (lane `c` at bits `[c*RW, c*RW+RW)`); sampled with `valid`.
    pub sub_rows: Signal<In, Bits<GW>>,
    /// Per-lane branch outcome (1 = taken); sampled with `valid`, inactive lanes ignored.
    pub taken: Signal<In, Bits<LANES>>,
    /// With `valid`: this is the branch's last sub-warp.
    pub last: Signal<In, Bit>,
    // branch result out (registered)
    /// The buffers hold a finished branch this cycle (the cycle after `last`).
    pub done: Signal<Out, Bit>,
    /// Taken threads, row-major (bit `r*LANES + c`); complete when `done`.
    pub taken_mask: Signal<Out, Bits<N>>,
    /// Not-taken threads, row-major; complete when `done`.
    pub not_taken_mask: Signal<Out, Bits<N>>,
    /// `done` and both masks non-empty: the large warp diverged.
    pub diverged: Signal<Out, Bit>,
    /// The taken-path temporary active-mask buffer, one register per row.
    taken_buf: [DFF<Bits<LANES>>; ROWS],
    /// The not-taken-path temporary active-mask buffer, one register per row.
    not_taken_buf: [DFF<Bits<LANES>>; ROWS],
    /// The buffers hold a finished branch (they clear on the next edge).
    finished: DFF<Bit>,
    /// Each row placed at the bottom of an `N`-bit word (then shifted to its place).
    taken_wide: [Widen<LANES, N>; ROWS],
    not_taken_wide: [Widen<LANES, N>; ROWS],
    /// Output assembly: rows ORed in at their row-major offsets.
    taken_acc: Signal<Local, Bits<N>>,
    not_taken_acc: Signal<Local, Bits<N>>,
    /// Some row of each buffer is non-empty.
    any_taken: Signal<Local, Bit>,
    any_not_taken: Signal<Local, Bit>,
    /// Lane `c`'s row id, at the bottom of a `GW`-bit word.
    lane_row: [Signal<Local, Bits<GW>>; LANES],
    /// Active lanes of this sub-warp whose thread sits in row `r` (loop-local).
    row_hit: Signal<Local, Bits<LANES>>,
    /// Row `r` of each buffer before this sub-warp is ORed in (zero right after a
    /// finished branch; loop-local).
    taken_base: Signal<Local, Bits<LANES>>,
    not_taken_base: Signal<Local, Bits<LANES>>,
    /// Row id `r` as a `GW`-bit word (compared with a lane's field shifted down).
    row_id: [Constant<Bits<GW>>; ROWS],
    /// Lane `c`'s bit of a lane vector.
    lane_one: [Constant<Bits<LANES>>; LANES],
    /// Bit offset of lane `c`'s row field (`c*RW`).
    lane_shift: [Constant<Bits<16>>; LANES],
    /// Bit offset of row `r` in a row-major mask (`r*LANES`).
    row_shift: [Constant<Bits<16>>; ROWS],
    /// The lowest `RW` bits of a `GW`-bit word.
    field_low: Constant<Bits<GW>>,
    zero_lanes: Constant<Bits<LANES>>,
    zero: Constant<Bits<N>>,
}

impl<const LANES: usize, const ROWS: usize, const N: usize, const RW: usize, const GW: usize>
    Default for BranchBuffers<LANES, ROWS, N, RW, GW>
{
    fn default() -> Self {
        assert!(
            ROWS >= 1 && LANES >= 1,
            "branch buffers need at least one row and lane"
        );
        assert_eq!(N, ROWS * LANES, "N must be ROWS*LANES");
        assert_eq!(RW, clog2(ROWS).max(1), "RW must be max(1, clog2(ROWS))");
        assert_eq!(GW, LANES * RW, "GW must be LANES*RW");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            valid: Default::default(),
            sub_mask: Default::default(),
            sub_rows: Default::default(),
            taken: Default::default(),
            last: Default::default(),
            done: Default::default(),
            taken_mask: Default::default(),
            not_taken_mask: Default::default(),
            diverged: Default::default(),
            taken_buf: array_init::array_init(|_| Default::default()),
            not_taken_buf: array_init::array_init(|_| Default::default()),
            finished: Default::default(),
            taken_wide: array_init::array_init(|_| Default::default()),
            not_taken_wide: array_init::array_init(|_| Default::default()),
            taken_acc: Default::default(),
            not_taken_acc: Default::default(),
            any_taken: Default::default(),
            any_not_taken: Default::default(),
            lane_row: array_init::array_init(|_| Default::default()),
            row_hit: Default::default(),
            taken_base: Default::default(),
            not_taken_base: Default::default(),
            row_id: array_init::array_init(|r| Constant::new(Bits::<GW>::from(r as u64))),
            lane_one: array_init::array_init(|c| {
                let mut v = Bits::<LANES>::default();
                v.set_bits::<1>(c, Bits::<1>::from(true));
                Constant::new(v)
            }),
            lane_shift: array_init::array_init(|c| Constant::new(((c * RW) as u64).into())),
            row_shift: array_init::array_init(|r| Constant::new(((r * LANES) as u64).into())),
            field_low: Constant::new(Bits::<GW>::from((1u64 << RW) - 1)),
            zero_lanes: Constant::new(Bits::default()),
            zero: Constant::new(Bits::default()),
        }
    }
}

impl<const LANES: usize, const ROWS: usize, const N: usize, const RW: usize, const GW: usize> Logic
    for BranchBuffers<LANES, ROWS, N, RW, GW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, finished);
        for r in 0..ROWS {
            self.taken_buf[r].clock.next = self.clock.val();
            self.not_taken_buf[r].clock.next = self.clock.val();
        }
        // Outputs: the rows assembled into row-major masks.
        self.taken_acc.next = self.zero.val();
        self.not_taken_acc.next = self.zero.val();
        self.any_taken.next = false;
        self.any_not_taken.next = false;
        for r in 0..ROWS {
            self.taken_wide[r].narrow.next = self.taken_buf[r].q.val();
            self.not_taken_wide[r].narrow.next = self.not_taken_buf[r].q.val();
            self.taken_acc.next =
                self.taken_acc.val() | (self.taken_wide[r].wide.val() << self.row_shift[r].val());
            self.not_taken_acc.next = self.not_taken_acc.val()
                | (self.not_taken_wide[r].wide.val() << self.row_shift[r].val());
            self.any_taken.next = self.any_taken.val() | self.taken_buf[r].q.val().any();
            self.any_not_taken.next =
                self.any_not_taken.val() | self.not_taken_buf[r].q.val().any();
        }
        self.done.next = self.finished.q.val();
        self.taken_mask.next = self.taken_acc.val();
        self.not_taken_mask.next = self.not_taken_acc.val();
        self.diverged.next =
            self.finished.q.val() & self.any_taken.val() & self.any_not_taken.val();
        // Each lane's row id, once.
        for c in 0..LANES {
            self.lane_row[c].next =
                (self.sub_rows.val() >> self.lane_shift[c].val()) & self.field_low.val();
        }
        // Row by row: OR the sub-warp's threads of that row into the buffers. A finished
        // branch is read this cycle and cleared on this edge.
        for r in 0..ROWS {
            self.row_hit.next = self.zero_lanes.val();
            for c in 0..LANES {
                if self.lane_row[c].val() == self.row_id[r].val() {
                    self.row_hit.next = self.row_hit.val() | self.lane_one[c].val();
                }
            }
            self.row_hit.next = self.row_hit.val() & self.sub_mask.val();
            self.taken_base.next = self.taken_buf[r].q.val();
            self.not_taken_base.next = self.not_taken_buf[r].q.val();
            if self.finished.q.val() {
                self.taken_base.next = self.zero_lanes.val();
                self.not_taken_base.next = self.zero_lanes.val();
            }
            self.taken_buf[r].d.next = self.taken_base.val();
            self.not_taken_buf[r].d.next = self.not_taken_base.val();
            if self.valid.val() {
                self.taken_buf[r].d.next =
                    self.taken_base.val() | (self.row_hit.val() & self.taken.val());
                self.not_taken_buf[r].d.next =
                    self.not_taken_base.val() | (self.row_hit.val() & !self.taken.val());
            }
            if self.reset.val() {
                self.taken_buf[r].d.next = self.zero_lanes.val();
                self.not_taken_buf[r].d.next = self.zero_lanes.val();
            }
        }
        self.finished.d.next = false;
        if self.valid.val() {
            self.finished.d.next = self.last.val();
        }
        if self.reset.val() {
            self.finished.d.next = false;
        }
    }
}

/// 32-thread large warp on 4 lanes (8 rows), the paper's Figure 7.
pub type BranchBuffers4x8 = BranchBuffers<4, 8, 32, 3, 12>;
/// 4 lanes x 3 rows: a non-power-of-two row count.
pub type BranchBuffers4x3 = BranchBuffers<4, 3, 12, 2, 8>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::BranchBuffers32x8;

    fn edge(uut: &mut BranchBuffers4x3) {
        uut.clock.next = Clock::from(false);
        assert!(simulate(uut, 100), "no fixed point");
        uut.clock.next = Clock::from(true);
        assert!(simulate(uut, 100), "no fixed point");
        uut.reset.next = false;
        uut.valid.next = false;
        uut.last.next = false;
        uut.clock.next = Clock::from(false);
        assert!(simulate(uut, 100), "no fixed point");
    }

    #[test]
    fn synthesizes() {
        let mut uut = BranchBuffers4x3::default();
        uut.connect_all();
        yosys_validate("branch_buffers_4x3", &generate_verilog(&uut)).unwrap();
        let mut uut = BranchBuffers32x8::default();
        uut.connect_all();
        yosys_validate("branch_buffers", &generate_verilog(&uut)).unwrap();
    }

    #[test]
    fn two_sub_warps_diverge() {
        let mut uut = BranchBuffers4x3::default();
        uut.connect_all();
        uut.reset.next = true;
        edge(&mut uut);
        // Sub-warp 1: lanes 0..3 from rows 0,2,1,0; lanes 0 and 2 taken.
        uut.valid.next = true;
        uut.sub_mask.next = 0b1111.into();
        uut.sub_rows.next = 0b00_01_10_00.into();
        uut.taken.next = 0b0101.into();
        edge(&mut uut);
        assert!(!uut.done.val());
        // Sub-warp 2 (last): lane 1 from row 1, taken.
        uut.valid.next = true;
        uut.last.next = true;
        uut.sub_mask.next = 0b0010.into();
        uut.sub_rows.next = 0b00_00_01_00.into();
        uut.taken.next = 0b1111.into();
        edge(&mut uut);
        assert!(uut.done.val());
        assert!(uut.diverged.val());
        // taken: (0,0) (1,2) (1,1); not taken: (2,1) (0,3)  [bit = row*4 + lane]
        let taken = (1 << 0) | (1 << 6) | (1 << 5);
        let not_taken = (1 << 9) | (1 << 3);
        assert_eq!(uut.taken_mask.val(), Bits::<12>::from(taken));
        assert_eq!(uut.not_taken_mask.val(), Bits::<12>::from(not_taken));
        edge(&mut uut);
        assert!(!uut.done.val());
        assert_eq!(uut.taken_mask.val(), Bits::<12>::from(0));
    }
}
