//! Compaction-adequacy prediction table (CAPT) of CAPRI
//! (`capri-compaction-adequacy.txt` §3.1, §3.3, §5.5; SPEC §3.3).
//!
//! Fully associative, `ENTRIES` entries of (valid, 32-bit branch PC tag, history).
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | clock, reset | in | 1 | reset invalidates all entries |
//! | lookup_pc | in | 32 | branch PC of a warp that diverged |
//! | hit | out | 1 | combinational: a valid entry holds `lookup_pc` |
//! | predict_adequate | out | 1 | combinational: the hit entry's history predicts adequate; 0 on a miss |
//! | op | in | 2 | 0 none; 1 insert; 2 update with `op_adequate`; 3 none |
//! | op_pc | in | 32 | branch PC of the insert or update |
//! | op_adequate | in | 1 | the evaluator's `adequate` (update only) |
//!
//! History (`HISTORY` parameter, `HW` bits): 0 `latest` (1 bit: last adequacy, the
//! paper's 1b-Latest), 1 `sticky` (1 bit, set on adequate, cleared only by reset),
//! 2 `counter2` (2-bit saturating counter, +1 adequate, -1 inadequate, predicts
//! adequate when >= 2). Insert initializes it to adequate (1, 1, 2).
//!
//! Replacement: an insert that misses takes the lowest-index invalid entry, else the
//! least recently used one; an insert or update that hits or allocates an entry makes
//! it most recently used; lookups don't. Exact LRU with one age per entry:
//!
//! ```text
//!   ages of the valid entries are a permutation of 0..V-1 (0 = most recent)
//!   touch entry t (old age a, or ENTRIES-1 when t was invalid):
//!     every valid entry younger than a ages by one; t gets age 0
//!   victim (all valid) = the entry of age ENTRIES-1
//! ```
//!
//! Latency: lookup combinational; insert/update take effect on the edge (visible to
//! a lookup the next cycle). Throughput: one lookup and one insert/update per cycle.
//! Storage: `ENTRIES x (1 + 32 + HW + AW)` flip-flops, `AW = max(1, clog2(ENTRIES))`:
//! 8 x (1 + 32 + 1) = 272 (the paper's §5.5 figure) + 8 x 3 = 24 LRU bits for `capt_8`.
//!
//! Choices where the paper and SPEC are silent:
//! - An insert that hits (the branch was inserted meanwhile) leaves the history as it
//!   is and only refreshes the entry's recency.
//! - Age counters rather than an LRU matrix: `ENTRIES*clog2(ENTRIES)` bits (24 for 8
//!   entries) against `ENTRIES*(ENTRIES-1)/2` (28). All state resets to zero (power-on
//!   equals reset; Verilog registers never carry X into the comparators).
//! - A lookup and an op of the same cycle are independent: the lookup sees the table
//!   before the edge.
use rust_hdl::prelude::*;

/// `op` values.
pub const OP_NONE: u64 = 0;
pub const OP_INSERT: u64 = 1;
pub const OP_UPDATE: u64 = 2;
/// `HISTORY` values.
pub const HISTORY_LATEST: usize = 0;
pub const HISTORY_STICKY: usize = 1;
pub const HISTORY_COUNTER2: usize = 2;

/// CAPT with `ENTRIES` entries; `HISTORY` one of the `HISTORY_*` values, `HW` its
/// history width (2 for `counter2`, else 1), `AW = max(1, clog2(ENTRIES))`.
#[derive(LogicBlock)]
pub struct Capt<const ENTRIES: usize, const HISTORY: usize, const HW: usize, const AW: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: invalidates every entry.
    pub reset: Signal<In, Bit>,
    // lookup (combinational)
    /// Branch PC of a warp that diverged.
    pub lookup_pc: Signal<In, Bits<32>>,
    /// A valid entry holds `lookup_pc`.
    pub hit: Signal<Out, Bit>,
    /// The hit entry predicts adequate; 0 on a miss.
    pub predict_adequate: Signal<Out, Bit>,
    // insert / update (on the edge)
    /// 0 none, 1 insert, 2 update, 3 none.
    pub op: Signal<In, Bits<2>>,
    /// Branch PC of the operation.
    pub op_pc: Signal<In, Bits<32>>,
    /// Adequacy of the evaluated branch (update only).
    pub op_adequate: Signal<In, Bit>,
    valid: [DFF<Bit>; ENTRIES],
    tag: [DFF<Bits<32>>; ENTRIES],
    history: [DFF<Bits<HW>>; ENTRIES],
    /// Recency rank among the valid entries, 0 = most recently used.
    age: [DFF<Bits<AW>>; ENTRIES],
    /// Lookup accumulators.
    hit_acc: Signal<Local, Bit>,
    predict_acc: Signal<Local, Bit>,
    is_insert: Signal<Local, Bit>,
    is_update: Signal<Local, Bit>,
    /// Entry holding `op_pc` (one-hot or zero).
    op_match: Signal<Local, Bits<ENTRIES>>,
    /// Lowest invalid entry (one-hot or zero).
    free: Signal<Local, Bits<ENTRIES>>,
    found_free: Signal<Local, Bit>,
    /// Valid entry of age ENTRIES-1 (the LRU one when all are valid).
    victim: Signal<Local, Bits<ENTRIES>>,
    /// An insert that misses: allocate.
    alloc: Signal<Local, Bit>,
    /// Entry made most recently used on this edge (one-hot or zero).
    touch: Signal<Local, Bits<ENTRIES>>,
    /// Age of the touched entry before the edge (ENTRIES-1 when it was invalid).
    touch_age: Signal<Local, Bits<AW>>,
    onehot: [Constant<Bits<ENTRIES>>; ENTRIES],
    zero_entries: Constant<Bits<ENTRIES>>,
    oldest: Constant<Bits<AW>>,
    age_one: Constant<Bits<AW>>,
    age_zero: Constant<Bits<AW>>,
    hist_init: Constant<Bits<HW>>,
    hist_one: Constant<Bits<HW>>,
    hist_zero: Constant<Bits<HW>>,
    hist_max: Constant<Bits<HW>>,
    /// The predicting bit (MSB) of the history.
    hist_msb: Constant<Bits<HW>>,
    mode: Constant<Bits<2>>,
    mode_latest: Constant<Bits<2>>,
    mode_sticky: Constant<Bits<2>>,
    op_insert: Constant<Bits<2>>,
    op_update: Constant<Bits<2>>,
    zero_pc: Constant<Bits<32>>,
}

impl<const ENTRIES: usize, const HISTORY: usize, const HW: usize, const AW: usize> Default
    for Capt<ENTRIES, HISTORY, HW, AW>
{
    fn default() -> Self {
        assert!(ENTRIES >= 1, "at least one entry");
        assert!(
            HISTORY <= HISTORY_COUNTER2,
            "HISTORY is latest, sticky or counter2"
        );
        assert_eq!(
            HW,
            if HISTORY == HISTORY_COUNTER2 { 2 } else { 1 },
            "HW must be 2 for counter2, else 1"
        );
        assert_eq!(
            AW,
            clog2(ENTRIES).max(1),
            "AW must be max(1, clog2(ENTRIES))"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            lookup_pc: Default::default(),
            hit: Default::default(),
            predict_adequate: Default::default(),
            op: Default::default(),
            op_pc: Default::default(),
            op_adequate: Default::default(),
            valid: array_init::array_init(|_| Default::default()),
            tag: array_init::array_init(|_| Default::default()),
            history: array_init::array_init(|_| Default::default()),
            age: array_init::array_init(|_| Default::default()),
            hit_acc: Default::default(),
            predict_acc: Default::default(),
            is_insert: Default::default(),
            is_update: Default::default(),
            op_match: Default::default(),
            free: Default::default(),
            found_free: Default::default(),
            victim: Default::default(),
            alloc: Default::default(),
            touch: Default::default(),
            touch_age: Default::default(),
            onehot: array_init::array_init(|i| {
                let mut v = Bits::<ENTRIES>::default();
                v.set_bits::<1>(i, true.into());
                Constant::new(v)
            }),
            zero_entries: Constant::new(Bits::default()),
            oldest: Constant::new(((ENTRIES - 1) as u64).into()),
            age_one: Constant::new(1u64.into()),
            age_zero: Constant::new(Bits::default()),
            hist_init: Constant::new((if HW == 2 { 2u64 } else { 1 }).into()),
            hist_one: Constant::new(1u64.into()),
            hist_zero: Constant::new(Bits::default()),
            hist_max: Constant::new(Bits::<HW>::mask()),
            hist_msb: Constant::new((1u64 << (HW - 1)).into()),
            mode: Constant::new((HISTORY as u64).into()),
            mode_latest: Constant::new((HISTORY_LATEST as u64).into()),
            mode_sticky: Constant::new((HISTORY_STICKY as u64).into()),
            op_insert: Constant::new(OP_INSERT.into()),
            op_update: Constant::new(OP_UPDATE.into()),
            zero_pc: Constant::new(Bits::default()),
        }
    }
}

impl<const ENTRIES: usize, const HISTORY: usize, const HW: usize, const AW: usize> Logic
    for Capt<ENTRIES, HISTORY, HW, AW>
{
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..ENTRIES {
            self.valid[i].clock.next = self.clock.val();
            self.tag[i].clock.next = self.clock.val();
            self.history[i].clock.next = self.clock.val();
            self.age[i].clock.next = self.clock.val();
            self.valid[i].d.next = self.valid[i].q.val();
            self.tag[i].d.next = self.tag[i].q.val();
            self.history[i].d.next = self.history[i].q.val();
            self.age[i].d.next = self.age[i].q.val();
        }
        // Lookup.
        self.hit_acc.next = false;
        self.predict_acc.next = false;
        for i in 0..ENTRIES {
            if self.valid[i].q.val() & (self.tag[i].q.val() == self.lookup_pc.val()) {
                self.hit_acc.next = true;
                if (self.history[i].q.val() & self.hist_msb.val()).any() {
                    self.predict_acc.next = true;
                }
            }
        }
        self.hit.next = self.hit_acc.val();
        self.predict_adequate.next = self.predict_acc.val();
        // Insert / update: find the entry.
        self.is_insert.next = self.op.val() == self.op_insert.val();
        self.is_update.next = self.op.val() == self.op_update.val();
        self.op_match.next = self.zero_entries.val();
        self.free.next = self.zero_entries.val();
        self.found_free.next = false;
        self.victim.next = self.zero_entries.val();
        for i in 0..ENTRIES {
            if self.valid[i].q.val() & (self.tag[i].q.val() == self.op_pc.val()) {
                self.op_match.next = self.op_match.val() | self.onehot[i].val();
            }
            if !self.valid[i].q.val() & !self.found_free.val() {
                self.free.next = self.onehot[i].val();
                self.found_free.next = true;
            }
            if self.valid[i].q.val() & (self.age[i].q.val() == self.oldest.val()) {
                self.victim.next = self.onehot[i].val();
            }
        }
        self.alloc.next = self.is_insert.val() & !self.op_match.val().any();
        self.touch.next = self.zero_entries.val();
        if self.is_insert.val() | self.is_update.val() {
            self.touch.next = self.op_match.val();
        }
        if self.alloc.val() {
            self.touch.next = self.victim.val();
            if self.found_free.val() {
                self.touch.next = self.free.val();
            }
        }
        self.touch_age.next = self.oldest.val();
        for i in 0..ENTRIES {
            if (self.touch.val() & self.onehot[i].val()).any() & self.valid[i].q.val() {
                self.touch_age.next = self.age[i].q.val();
            }
        }
        // Apply.
        for i in 0..ENTRIES {
            if (self.touch.val() & self.onehot[i].val()).any() {
                self.age[i].d.next = self.age_zero.val();
                if self.alloc.val() {
                    self.valid[i].d.next = true;
                    self.tag[i].d.next = self.op_pc.val();
                    self.history[i].d.next = self.hist_init.val();
                }
                if self.is_update.val() {
                    if self.mode.val() == self.mode_latest.val() {
                        self.history[i].d.next = self.hist_zero.val();
                        if self.op_adequate.val() {
                            self.history[i].d.next = self.hist_one.val();
                        }
                    } else if self.mode.val() == self.mode_sticky.val() {
                        if self.op_adequate.val() {
                            self.history[i].d.next = self.hist_one.val();
                        }
                    } else if self.op_adequate.val() {
                        if self.history[i].q.val() != self.hist_max.val() {
                            self.history[i].d.next = self.history[i].q.val() + self.hist_one.val();
                        }
                    } else if self.history[i].q.val() != self.hist_zero.val() {
                        self.history[i].d.next = self.history[i].q.val() - self.hist_one.val();
                    }
                }
            } else if self.touch.val().any()
                & self.valid[i].q.val()
                & (self.age[i].q.val() < self.touch_age.val())
            {
                self.age[i].d.next = self.age[i].q.val() + self.age_one.val();
            }
            if self.reset.val() {
                self.valid[i].d.next = false;
                self.tag[i].d.next = self.zero_pc.val();
                self.history[i].d.next = self.hist_zero.val();
                self.age[i].d.next = self.age_zero.val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::{Capt8, Capt8Counter2};

    #[test]
    fn synthesizes() {
        let mut uut = Capt8Counter2::default();
        uut.connect_all();
        yosys_validate("capt_8_counter2", &generate_verilog(&uut)).unwrap();
    }

    #[test]
    fn insert_then_update_to_inadequate() {
        let mut uut = Capt8::default();
        uut.connect_all();
        let edge = |uut: &mut Capt8| {
            uut.clock.next = true.into();
            assert!(simulate(uut, 100));
            uut.clock.next = false.into();
            assert!(simulate(uut, 100));
        };
        uut.reset.next = true;
        edge(&mut uut);
        uut.reset.next = false;
        uut.lookup_pc.next = 0x40u64.into();
        assert!(simulate(&mut uut, 100));
        assert!(!uut.hit.val() && !uut.predict_adequate.val());
        uut.op.next = OP_INSERT.into();
        uut.op_pc.next = 0x40u64.into();
        edge(&mut uut);
        assert!(uut.hit.val() && uut.predict_adequate.val());
        uut.op.next = OP_UPDATE.into();
        uut.op_adequate.next = false;
        edge(&mut uut);
        assert!(uut.hit.val() && !uut.predict_adequate.val());
    }
}
