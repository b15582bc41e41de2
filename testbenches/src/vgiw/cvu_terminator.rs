//! CVU terminator bench: RTL vs model, with the SPEC §5 contracts: every finished
//! thread leaves in exactly one batch of its target (none lost, none duplicated),
//! batches are 64-aligned windows, and a flush drains every open batch.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::BTreeSet;
use weft_hdl::vgiw::cvu_terminator::CvuTerminator;
use weft_sim::vgiw::cvu_terminator::{CvuTerminator as Model, Finished};

/// Inputs of one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct TerminatorInputs {
    pub reset: bool,
    pub in_valid: bool,
    pub id: u16,
    pub taken: bool,
    pub flush: bool,
    pub out_ready: bool,
}

pub struct CvuTerminatorBench {
    pub uut: CvuTerminator,
    pub model: Model,
    pub inputs: TerminatorInputs,
    /// Percent of cycles with a finished thread offered.
    pub valid_percent: u32,
    /// Percent of cycles the scheduler is ready.
    pub ready_percent: u32,
    /// Threads accepted and not yet sent, per target.
    pending: [BTreeSet<u16>; 2],
    /// Windows (id / 64) the random threads are drawn from: out-of-order completion
    /// around a moving front.
    front: u16,
    /// Threads sent (for throughput measurements).
    pub sent: u64,
}

impl crate::presets::Tested for CvuTerminator {
    fn params() -> Vec<(&'static str, usize)> {
        vec![("BATCH", 64), ("ID_BITS", 16), ("TARGETS", 2)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(CvuTerminatorBench::default())
    }
    fn properties() -> Option<crate::presets::Properties> {
        Some(crate::presets::Properties {
            harness: include_str!("cvu_terminator.props.v"),
            planted: PLANTED,
        })
    }
}

/// Bugs planted in the exported Verilog (of `cvu_terminator`), each caught by the
/// property named. A property other than the invariant `p_inv_slots_well_formed` is
/// caught by its own clause: its bug leaves the slots well formed (`tests/prove.rs`
/// checks that the invariant still holds on it).
const PLANTED: &[(&str, &str, &str)] = &[
    // A flush sends slot b of target 0 even when an earlier slot is open.
    (
        "p_out_is_victim_or_first_open",
        "flush_b$0 = flushing & b_valid$0$q & ~found;",
        "flush_b$0 = flushing & b_valid$0$q;",
    ),
    // A batch's window is not aligned to 64 threads.
    (
        "p_inv_slots_well_formed",
        "win = in_id & win_mask;",
        "win = in_id;",
    ),
    // A flush with no slot open presents an empty batch (sending it closes no slot).
    (
        "p_batches_well_formed",
        "out_valid = any_evict | found;",
        "out_valid = any_evict | found | flush;",
    ),
    // A thread is taken while its eviction waits for the scheduler.
    (
        "p_in_ready_stalls_only_on_eviction",
        "in_ready = ~any_evict | out_ready;",
        "in_ready = 1'b1;",
    ),
    // A thread that hits slot a of target 0 is dropped.
    (
        "p_thread_recorded",
        "a_bits$0$d = a_bits$0$q | id_bit;",
        "a_bits$0$d = a_bits$0$q;",
    ),
    // A hit on slot b of target 1 drops the slot's earlier threads.
    (
        "p_held_slots_keep_threads",
        "b_bits$1$d = b_bits$1$q | id_bit;",
        "b_bits$1$d = id_bit;",
    ),
    // A miss that opens slot b of target 0 leaves it the older slot.
    (
        "p_miss_opens_free_else_older",
        "older_b$0$d = 1'b1;",
        "older_b$0$d = 1'b0;",
    ),
    // A flushed slot a of target 1 closes only when a thread is taken too.
    (
        "p_flush_closes_sent_slot",
        "if (flush_a$1 & out_ready) begin",
        "if (flush_a$1 & out_ready & in_taken) begin",
    ),
    // Reset keeps slot a of target 1 as it was, open with its batch (so the slots stay
    // well formed; the text spans lines: each line alone also occurs in the flush
    // logic).
    (
        "p_reset_closes_all",
        "if (reset) begin\n            a_valid$1$d = 1'b0;\n            a_base$1$d = zero16;\n            a_bits$1$d = zero64;",
        "if (reset) begin\n            a_valid$1$d = a_valid$1$q;\n            a_base$1$d = a_base$1$q;\n            a_bits$1$d = a_bits$1$q;",
    ),
];

impl Default for CvuTerminatorBench {
    fn default() -> Self {
        let mut uut = CvuTerminator::default();
        uut.connect_all();
        CvuTerminatorBench {
            uut,
            model: Model::new(),
            inputs: TerminatorInputs::default(),
            valid_percent: 70,
            ready_percent: 80,
            pending: Default::default(),
            front: 0,
            sent: 0,
        }
    }
}

impl CvuTerminatorBench {
    /// Applies explicit inputs (directed tests use this instead of `drive`).
    pub fn apply(&mut self, i: TerminatorInputs) {
        self.uut.reset.next = i.reset;
        self.uut.in_valid.next = i.in_valid;
        self.uut.in_id.next = u64::from(i.id).into();
        self.uut.in_taken.next = i.taken;
        self.uut.flush.next = i.flush;
        self.uut.out_ready.next = i.out_ready;
        self.inputs = i;
    }

    fn input(&self) -> Option<Finished> {
        let i = self.inputs;
        i.in_valid.then_some(Finished {
            id: i.id,
            taken: i.taken,
        })
    }

    /// Threads accepted and not yet sent.
    pub fn pending(&self) -> usize {
        self.pending[0].len() + self.pending[1].len()
    }
}

impl Bench for CvuTerminatorBench {
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        if rng.gen_ratio(1, 40) {
            self.front = self.front.wrapping_add(rng.gen_range(1..200));
        }
        let id = self.front.wrapping_add(rng.gen_range(0..256));
        // A thread finishes once: an id still pending is not offered again.
        let fresh = !self.pending[0].contains(&id) && !self.pending[1].contains(&id);
        self.apply(TerminatorInputs {
            reset: cycle == 0 || rng.gen_ratio(1, 3000),
            in_valid: fresh && rng.gen_ratio(self.valid_percent, 100),
            id,
            taken: rng.gen_bool(0.5),
            flush: rng.gen_ratio(1, 8),
            out_ready: rng.gen_ratio(self.ready_percent, 100),
        });
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let want = self.model.outputs(self.input(), i.flush, i.out_ready);
        let base = small(self.uut.out_base.val()) as u16;
        let bitmap = small(self.uut.out_bitmap.val());
        expect("in_ready", want.in_ready, self.uut.in_ready.val())?;
        expect("out_valid", want.out_valid, self.uut.out_valid.val())?;
        expect("out_taken", want.out_taken, self.uut.out_taken.val())?;
        expect("out_base", want.out.base, base)?;
        expect("out_bitmap", want.out.bitmap, bitmap)?;
        expect("empty", want.empty, self.uut.empty.val())?;
        if self.uut.out_valid.val() {
            contract(
                "batches are 64-aligned and non-empty",
                base.is_multiple_of(64) && bitmap != 0,
                || format!("base {base} bitmap {bitmap:#x}"),
            )?;
            let t = usize::from(self.uut.out_taken.val());
            for k in (0..64).filter(|k| bitmap >> k & 1 == 1) {
                let id = base.wrapping_add(k);
                contract(
                    "a sent thread finished with this outcome and was not sent before",
                    self.pending[t].contains(&id),
                    || format!("thread {id} target {t}"),
                )?;
            }
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let input = self.input();
        let out = self.model.outputs(input, i.flush, i.out_ready);
        if i.reset {
            self.pending = Default::default();
        } else {
            if out.out_valid && i.out_ready {
                let t = usize::from(out.out_taken);
                for k in (0..64).filter(|k| out.out.bitmap >> k & 1 == 1) {
                    self.pending[t].remove(&out.out.base.wrapping_add(k));
                    self.sent += 1;
                }
            }
            if i.in_valid && out.in_ready {
                self.pending[usize::from(i.taken)].insert(i.id);
            }
        }
        self.model.clock(i.reset, input, i.flush, i.out_ready);
        // Conservation: what is pending is exactly what the open slots hold.
        let mut held: [BTreeSet<u16>; 2] = Default::default();
        for (taken, b) in self.model.held() {
            for k in (0..64).filter(|k| b.bitmap >> k & 1 == 1) {
                contract(
                    "a thread is held once",
                    held[usize::from(taken)].insert(b.base + k),
                    || format!("thread {} twice", b.base + k),
                )?;
            }
        }
        contract(
            "no thread lost: pending == held",
            held == self.pending,
            || format!("pending {:?}, held {:?}", self.pending, held),
        )?;
        Ok(())
    }
}
