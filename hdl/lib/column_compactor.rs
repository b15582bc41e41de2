//! Column compactor: the engine under LWM sub-warping (SPEC §2.1) and the TBC/CAPRI
//! warp compaction unit (SPEC §3.2).
//!
//! Holds a 2-D mask of `ROWS` rows x `LANES` lanes (row-major, SPEC §0). Every cycle,
//! for each lane in parallel, it picks the lowest held thread of that lane's column
//! among the rows enabled by `row_enable`; the picked threads form one packed group
//! (a lane mask plus the row id of each lane's thread). A thread never leaves its
//! lane, so the number of groups for a mask is the largest column popcount: the lower
//! bound for any lane-preserving packing.
//!
//! ```text
//!   held row 0   . x . x        group 0: lanes 1,3 from row 0, lane 0 from row 1
//!   held row 1   x x . .        group 1: lane 1 from row 1
//! ```
//!
//! Latency: the group of a mask loaded on edge `t` is presented in cycle `t+1`.
//! Throughput: one group per cycle. Storage: `ROWS*LANES` flip-flops.
//!
//! Choices where the papers are silent:
//! - `row_enable` restricts the pick to some rows: the WCU enables the warps that
//!   take part in compaction (its update mask). Disabled rows keep their bits.
//! - `one_row` picks only from the lowest enabled row that holds a thread: LWM memory
//!   mode, where a sub-warp is one row so that its accesses stay coalesced.
//! - The controls are inputs that the user drives from its own registers, never from
//!   this block's outputs, so no combinational path runs through the user and back.
//! - Priority on an edge: `reset` > `load` > `flush` (clear everything) > `take`
//!   (clear the presented group).
use rust_hdl::prelude::*;

/// Column compactor over `ROWS` x `LANES` threads. `N = ROWS*LANES`, `RW` is the row id
/// width (`clog2(ROWS)`, at least 1) and `GW = LANES*RW` the packed row-id vector width.
#[derive(LogicBlock)]
pub struct ColumnCompactor<
    const ROWS: usize,
    const LANES: usize,
    const N: usize,
    const RW: usize,
    const GW: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empties the held mask.
    pub reset: Signal<In, Bit>,
    // load interface
    /// Take `mask_in` as the held mask on this edge.
    pub load: Signal<In, Bit>,
    /// Row-major mask to hold (bit `r*LANES + c` is row `r`, lane `c`).
    pub mask_in: Signal<In, Bits<N>>,
    // pick control
    /// Rows that may be picked this cycle.
    pub row_enable: Signal<In, Bits<ROWS>>,
    /// Pick only from the lowest enabled row that holds a thread.
    pub one_row: Signal<In, Bit>,
    /// Clear the presented group's threads on this edge.
    pub take: Signal<In, Bit>,
    /// Clear every held thread on this edge.
    pub flush: Signal<In, Bit>,
    // group out
    /// The presented group has at least one thread.
    pub group_valid: Signal<Out, Bit>,
    /// Lanes active in the presented group.
    pub group_mask: Signal<Out, Bits<LANES>>,
    /// Row id of each lane's thread (lane `c` at bits `[c*RW, c*RW+RW)`), 0 when inactive.
    pub group_rows: Signal<Out, Bits<GW>>,
    /// No thread would remain held after taking the presented group.
    pub group_last: Signal<Out, Bit>,
    /// The held mask, one register per row.
    held: [DFF<Bits<LANES>>; ROWS],
    /// Threads picked from each row this cycle.
    pick_row: [Signal<Local, Bits<LANES>>; ROWS],
    /// A lower enabled row already held a thread (ends the scan in `one_row` mode).
    row_taken: Signal<Local, Bit>,
    /// Lanes already served by a lower row while scanning rows upwards.
    seen: Signal<Local, Bits<LANES>>,
    /// Held threads that the presented group leaves behind.
    left: Signal<Local, Bits<LANES>>,
    /// Row id of one lane, placed at the top of a `GW`-bit word.
    lane_field: Signal<Local, Bits<GW>>,
    /// Packed row ids, filled from the top and shifted down one lane at a time.
    rows_acc: Signal<Local, Bits<GW>>,
    /// Row id `r` shifted to the top field of a `GW`-bit word (sized literals keep the
    /// Verilog free of width casts).
    row_top: [Constant<Bits<GW>>; ROWS],
    lanes: Constant<Bits<16>>,
    row_width: Constant<Bits<16>>,
    zero_lanes: Constant<Bits<LANES>>,
    zero_rows: Constant<Bits<GW>>,
}

impl<const ROWS: usize, const LANES: usize, const N: usize, const RW: usize, const GW: usize>
    Default for ColumnCompactor<ROWS, LANES, N, RW, GW>
{
    fn default() -> Self {
        assert!(
            ROWS >= 1 && LANES >= 1,
            "column compactor needs at least one row and lane"
        );
        assert_eq!(N, ROWS * LANES, "N must be ROWS*LANES");
        assert_eq!(RW, clog2(ROWS).max(1), "RW must be max(1, clog2(ROWS))");
        assert_eq!(GW, LANES * RW, "GW must be LANES*RW");
        let mut row_top: [Constant<Bits<GW>>; ROWS] =
            array_init::array_init(|_| Constant::new(Bits::default()));
        for (r, slot) in row_top.iter_mut().enumerate() {
            let mut v = Bits::<GW>::default();
            v.set_bits::<RW>(GW - RW, Bits::<RW>::from(r as u64));
            *slot = Constant::new(v);
        }
        Self {
            clock: Default::default(),
            reset: Default::default(),
            load: Default::default(),
            mask_in: Default::default(),
            row_enable: Default::default(),
            one_row: Default::default(),
            take: Default::default(),
            flush: Default::default(),
            group_valid: Default::default(),
            group_mask: Default::default(),
            group_rows: Default::default(),
            group_last: Default::default(),
            held: array_init::array_init(|_| Default::default()),
            pick_row: array_init::array_init(|_| Default::default()),
            row_taken: Default::default(),
            seen: Default::default(),
            left: Default::default(),
            lane_field: Default::default(),
            rows_acc: Default::default(),
            row_top,
            lanes: Constant::new((LANES as u64).into()),
            row_width: Constant::new((RW as u64).into()),
            zero_lanes: Constant::new(Bits::default()),
            zero_rows: Constant::new(Bits::default()),
        }
    }
}

impl<const ROWS: usize, const LANES: usize, const N: usize, const RW: usize, const GW: usize> Logic
    for ColumnCompactor<ROWS, LANES, N, RW, GW>
{
    #[hdl_gen]
    fn update(&mut self) {
        for r in 0..ROWS {
            self.held[r].clock.next = self.clock.val();
            self.held[r].d.next = self.held[r].q.val();
        }
        // Pick: scanning rows upwards, a row serves the lanes no lower row served.
        self.seen.next = self.zero_lanes.val();
        self.row_taken.next = false;
        self.left.next = self.zero_lanes.val();
        for r in 0..ROWS {
            self.pick_row[r].next = self.zero_lanes.val();
            if self.row_enable.val().get_bit(r) & !(self.one_row.val() & self.row_taken.val()) {
                self.pick_row[r].next = self.held[r].q.val() & !self.seen.val();
                self.seen.next = self.seen.val() | self.held[r].q.val();
                self.row_taken.next = self.held[r].q.val().any();
            }
            self.left.next = self.left.val() | (self.held[r].q.val() & !self.pick_row[r].val());
        }
        self.group_mask.next = self.seen.val();
        self.group_valid.next = self.seen.val().any();
        self.group_last.next = !self.left.val().any();
        // Pack the row id of each lane's pick, lane 0 ending at the bottom.
        self.rows_acc.next = self.zero_rows.val();
        for c in 0..LANES {
            self.lane_field.next = self.zero_rows.val();
            for r in 0..ROWS {
                if self.pick_row[r].val().get_bit(c) {
                    self.lane_field.next = self.row_top[r].val();
                }
            }
            self.rows_acc.next =
                (self.rows_acc.val() >> self.row_width.val()) | self.lane_field.val();
        }
        self.group_rows.next = self.rows_acc.val();
        // Next held mask.
        if self.take.val() {
            for r in 0..ROWS {
                self.held[r].d.next = self.held[r].q.val() & !self.pick_row[r].val();
            }
        }
        if self.flush.val() {
            for r in 0..ROWS {
                self.held[r].d.next = self.zero_lanes.val();
            }
        }
        if self.load.val() {
            for r in 0..ROWS {
                self.held[r].d.next = self
                    .mask_in
                    .val()
                    .get_bits::<LANES>(r * self.lanes.val().index());
            }
        }
        if self.reset.val() {
            for r in 0..ROWS {
                self.held[r].d.next = self.zero_lanes.val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = ColumnCompactor::<3, 4, 12, 2, 8>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        std::fs::write("/tmp/cc.v", &vlog).unwrap();
        yosys_validate("column_compactor", &vlog).unwrap();
    }
}
