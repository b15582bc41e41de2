//! Memory Divergence Table of one warp (`diverge-on-miss.txt` §4.1, Figure 3, Table 1;
//! SPEC §4).
//!
//! `M` entries of (PC, thread bitmask). An entry is in use while its bitmask is not
//! empty: there is no separate valid bit, so the storage is exactly Table 1's
//! `M x (PCW + LANES)` flip-flops (`Mdt32`: 2 x (32 + 32) = 128).
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | clock, reset | in | 1 | reset empties every entry |
//! | access | in | 1 | a divergent memory op at `pc` wants to mask off `miss_mask` |
//! | pc | in | PCW | PC of the memory op |
//! | miss_mask | in | LANES | threads that missed (to merge or allocate) |
//! | forbid | in | 1 | allocation and merging are refused (slip limit, or not divergent) |
//! | release_mask | in | LANES | threads re-enabled: cleared from every entry on this edge |
//! | matched | out | 1 | comb.: an entry in use holds `pc` |
//! | match_entry | out | M | comb.: one-hot entry holding `pc` (0 when none) |
//! | match_mask | out | LANES | comb.: bitmask of that entry (0 when none) |
//! | accept | out | 1 | comb.: `access` with misses merged or allocated on this edge |
//! | refuse | out | 1 | comb.: `access` with misses that could not be taken: block |
//! | target | out | M | comb.: one-hot entry written on this edge (0 unless `accept`) |
//! | waiting | out | LANES | registered: OR of every entry's bitmask |
//! | valid | out | M | registered: entries in use |
//! | full | out | 1 | registered: every entry in use |
//!
//! Next state, per entry `k`: `mask' = (mask & !release_mask) | (target_k ? miss_mask : 0)`;
//! an allocated entry also takes `pc`. An entry whose bitmask becomes empty is free on
//! the next cycle (freeing is implicit). Latency: comb. decisions, state on the edge.
//!
//! Choices where the paper is silent:
//! - `access` with an empty `miss_mask` does nothing (nothing to mask off).
//! - Merge before allocate: a PC never occupies two entries. Allocation takes the
//!   lowest free entry, free as of this cycle's registers (an entry emptied by this
//!   edge's `release_mask` is reusable on the next cycle).
//! - `forbid` refuses merging as well as allocation (a warp at its slip limit issues no
//!   divergent memory operation at all, §5.1 "reverts to blocking execution").
//! - The release applies to every entry: a thread waits on at most one memory op (it is
//!   masked off from the moment it misses), so a lane mask names it uniquely.
use rust_hdl::prelude::*;

/// MDT of `M` entries for `LANES` threads and `PCW`-bit PCs.
#[derive(LogicBlock)]
pub struct Mdt<const LANES: usize, const M: usize, const PCW: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empties every entry.
    pub reset: Signal<In, Bit>,
    // memory op
    /// A memory op of this warp wants to mask off `miss_mask` at `pc`.
    pub access: Signal<In, Bit>,
    /// PC of the memory op; compared with every entry in use.
    pub pc: Signal<In, Bits<PCW>>,
    /// Threads that missed; sampled with `access`.
    pub miss_mask: Signal<In, Bits<LANES>>,
    /// Refuse merging and allocation this cycle.
    pub forbid: Signal<In, Bit>,
    // re-enable
    /// Threads cleared from every entry on this edge (their data was written back).
    pub release_mask: Signal<In, Bits<LANES>>,
    // decisions (combinational)
    /// An entry in use holds `pc`.
    pub matched: Signal<Out, Bit>,
    /// One-hot entry holding `pc`; 0 when none.
    pub match_entry: Signal<Out, Bits<M>>,
    /// Bitmask of the entry holding `pc`; 0 when none.
    pub match_mask: Signal<Out, Bits<LANES>>,
    /// The misses are merged or allocated on this edge.
    pub accept: Signal<Out, Bit>,
    /// `access` with misses that cannot be taken: the warp must block.
    pub refuse: Signal<Out, Bit>,
    /// One-hot entry written on this edge; 0 unless `accept`.
    pub target: Signal<Out, Bits<M>>,
    // state (registered)
    /// Every thread held by some entry.
    pub waiting: Signal<Out, Bits<LANES>>,
    /// Entries in use (bitmask not empty).
    pub valid: Signal<Out, Bits<M>>,
    /// Every entry in use.
    pub full: Signal<Out, Bit>,
    /// PC of each entry.
    entry_pc: [DFF<Bits<PCW>>; M],
    /// Thread bitmask of each entry (empty = free).
    entry_mask: [DFF<Bits<LANES>>; M],
    free_pick: Signal<Local, Bits<M>>,
    any_free: Signal<Local, Bit>,
    want: Signal<Local, Bit>,
    target_now: Signal<Local, Bits<M>>,
    onehot: [Constant<Bits<M>>; M],
    zero_m: Constant<Bits<M>>,
    zero_lanes: Constant<Bits<LANES>>,
}

impl<const LANES: usize, const M: usize, const PCW: usize> Default for Mdt<LANES, M, PCW> {
    fn default() -> Self {
        assert!(
            LANES >= 1 && M >= 1 && PCW >= 1,
            "MDT needs lanes, entries, PC bits"
        );
        assert!(
            M <= 64,
            "one-hot entry vectors are built from u64 constants"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            access: Default::default(),
            pc: Default::default(),
            miss_mask: Default::default(),
            forbid: Default::default(),
            release_mask: Default::default(),
            matched: Default::default(),
            match_entry: Default::default(),
            match_mask: Default::default(),
            accept: Default::default(),
            refuse: Default::default(),
            target: Default::default(),
            waiting: Default::default(),
            valid: Default::default(),
            full: Default::default(),
            entry_pc: array_init::array_init(|_| Default::default()),
            entry_mask: array_init::array_init(|_| Default::default()),
            free_pick: Default::default(),
            any_free: Default::default(),
            want: Default::default(),
            target_now: Default::default(),
            onehot: array_init::array_init(|k| Constant::new(Bits::<M>::from(1u64 << k))),
            zero_m: Constant::new(Bits::default()),
            zero_lanes: Constant::new(Bits::default()),
        }
    }
}

impl<const LANES: usize, const M: usize, const PCW: usize> Logic for Mdt<LANES, M, PCW> {
    #[hdl_gen]
    fn update(&mut self) {
        for k in 0..M {
            self.entry_pc[k].clock.next = self.clock.val();
            self.entry_mask[k].clock.next = self.clock.val();
            self.entry_pc[k].d.next = self.entry_pc[k].q.val();
        }
        // Search (merge) and the lowest free entry (allocate).
        self.matched.next = false;
        self.match_entry.next = self.zero_m.val();
        self.match_mask.next = self.zero_lanes.val();
        self.free_pick.next = self.zero_m.val();
        self.any_free.next = false;
        self.waiting.next = self.zero_lanes.val();
        self.valid.next = self.zero_m.val();
        for k in 0..M {
            if self.entry_mask[k].q.val().any() {
                self.valid.next = self.valid.val() | self.onehot[k].val();
                self.waiting.next = self.waiting.val() | self.entry_mask[k].q.val();
                if self.entry_pc[k].q.val() == self.pc.val() {
                    self.matched.next = true;
                    self.match_entry.next = self.onehot[k].val();
                    self.match_mask.next = self.entry_mask[k].q.val();
                }
            } else if !self.any_free.val() {
                self.any_free.next = true;
                self.free_pick.next = self.onehot[k].val();
            }
        }
        self.full.next = !self.any_free.val();
        self.want.next = self.access.val() & self.miss_mask.val().any();
        self.accept.next =
            self.want.val() & !self.forbid.val() & (self.matched.val() | self.any_free.val());
        self.refuse.next = self.want.val() & !self.accept.val();
        self.target_now.next = self.zero_m.val();
        if self.accept.val() {
            self.target_now.next = self.free_pick.val();
            if self.matched.val() {
                self.target_now.next = self.match_entry.val();
            }
        }
        self.target.next = self.target_now.val();
        for k in 0..M {
            self.entry_mask[k].d.next = self.entry_mask[k].q.val() & !self.release_mask.val();
            if (self.target_now.val() & self.onehot[k].val()).any() {
                self.entry_mask[k].d.next =
                    (self.entry_mask[k].q.val() & !self.release_mask.val()) | self.miss_mask.val();
                self.entry_pc[k].d.next = self.pc.val();
            }
            if self.reset.val() {
                self.entry_mask[k].d.next = self.zero_lanes.val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = crate::presets::Mdt32::default();
        uut.connect_all();
        yosys_validate("mdt", &generate_verilog(&uut)).unwrap();
        let mut uut = Mdt::<2, 1, 4>::default();
        uut.connect_all();
        yosys_validate("mdt_2x1", &generate_verilog(&uut)).unwrap();
    }

    #[test]
    fn merge_allocate_refuse() {
        let mut uut = Mdt::<4, 1, 8>::default();
        uut.connect_all();
        uut.access.next = true;
        uut.pc.next = 0x10.into();
        uut.miss_mask.next = 0b0001.into();
        uut.clock.next = Clock::from(false);
        simulate(&mut uut, 10);
        assert!(uut.accept.val() && !uut.matched.val());
        uut.clock.next = Clock::from(true);
        simulate(&mut uut, 10);
        uut.clock.next = Clock::from(false);
        uut.miss_mask.next = 0b0100.into();
        simulate(&mut uut, 10);
        assert!(uut.accept.val() && uut.matched.val());
        uut.pc.next = 0x20.into();
        simulate(&mut uut, 10);
        assert!(uut.refuse.val() && !uut.accept.val(), "one entry, full");
    }
}
