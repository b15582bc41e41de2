//! CVU thread terminator (`vgiw-control-flow-coalescing.txt` §3.2, §3.5 "Control
//! vector units"; SPEC §5): collects finished threads, in any order, into batches
//! `<base (16), bitmap (64)>` per branch target and sends them to the basic block
//! scheduler, which ORs them into the control vector table.
//!
//! ```text
//!  (id, taken) ─┬─ taken=0: slot a0 [base|bitmap]  slot b0 [base|bitmap]   older0
//!               └─ taken=1: slot a1 [base|bitmap]  slot b1 [base|bitmap]   older1
//!  window = id & !63: hit an open slot of the target -> OR the bit in;
//!  miss -> open a free slot, or send the older slot's (partial) batch and reuse it.
//!  flush (no thread this cycle): send the first open slot (a0, b0, a1, b1).
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `in_valid`, `in_ready` | in, out | 1, 1 | finished-thread handshake; `in_ready = !evict \|\| out_ready` (combinational) |
//! | `in_id`, `in_taken` | in | 16, 1 | thread id and its branch outcome (target 1 or 0) |
//! | `flush` | in | 1 | send the open batches, one per cycle, while no thread arrives |
//! | `out_valid`, `out_ready` | out, in | 1, 1 | batch handshake; `out_valid` is combinational (an eviction depends on this cycle's thread) |
//! | `out_taken` | out | 1 | which target the batch is for (the BBS maps it to a block id through its block table) |
//! | `out_base`, `out_bitmap` | out | 16, 64 | the batch (base is 64-aligned); 0 when `out_valid` is 0 |
//! | `empty` | out | 1 | no slot is open (registered) |
//!
//! Latency: a batch leaves in the same cycle as the thread that evicts it (no output
//! register): the unit's batch storage is exactly the paper's four 80-bit batches,
//! 4 x (16 + 64) = 320 bits, plus 4 open bits and 2 age bits (326 flip-flops; the low
//! 6 base bits are always 0 and synthesis removes them). Throughput: one thread per
//! cycle when the scheduler is ready.
//!
//! Choices where the paper is silent:
//! - Batch windows are 64-aligned (`base = id & !63`), so every batch is one CVT word
//!   and the scheduler's OR is a single word write.
//! - A thread whose window matches neither open slot of its target opens a free slot,
//!   else evicts the *older* of the two (the slot opened first), which keeps the most
//!   recently started window open for out-of-order stragglers.
//! - `flush` (the scheduler asserts it once every thread of the block has been
//!   initiated) drains slots only in cycles without an incoming thread.
//! - A thread reported twice in the same window is ORed (idempotent).
//! - Reset closes every slot.
use rust_hdl::prelude::*;

/// Thread terminator with two targets and two batches per target.
#[derive(LogicBlock)]
pub struct CvuTerminator {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: closes every slot.
    pub reset: Signal<In, Bit>,
    // finished thread in (from the fabric)
    /// A thread finished the block.
    pub in_valid: Signal<In, Bit>,
    /// The thread offered now is taken on this edge.
    pub in_ready: Signal<Out, Bit>,
    /// The finished thread's id.
    pub in_id: Signal<In, Bits<16>>,
    /// Its branch outcome: 1 = target 1, 0 = target 0.
    pub in_taken: Signal<In, Bit>,
    /// Send the open batches (one per cycle, only when `in_valid` is 0).
    pub flush: Signal<In, Bit>,
    // batch out (to the BBS)
    /// A batch is presented.
    pub out_valid: Signal<Out, Bit>,
    /// The scheduler takes the presented batch on this edge.
    pub out_ready: Signal<In, Bit>,
    /// Target of the batch.
    pub out_taken: Signal<Out, Bit>,
    /// First thread id of the batch (64-aligned).
    pub out_base: Signal<Out, Bits<16>>,
    /// Bit `i` set: thread `out_base + i` goes to the target.
    pub out_bitmap: Signal<Out, Bits<64>>,
    /// No slot is open.
    pub empty: Signal<Out, Bit>,
    /// Slot a / b of target `t` (index `t`): open bit, base and bitmap.
    a_valid: [DFF<Bit>; 2],
    a_base: [DFF<Bits<16>>; 2],
    a_bits: [DFF<Bits<64>>; 2],
    b_valid: [DFF<Bit>; 2],
    b_base: [DFF<Bits<16>>; 2],
    b_bits: [DFF<Bits<64>>; 2],
    /// Slot b of target `t` was opened before slot a (b is the eviction victim).
    older_b: [DFF<Bit>; 2],
    win: Signal<Local, Bits<16>>,
    id_bit: Signal<Local, Bits<64>>,
    sel: [Signal<Local, Bit>; 2],
    a_hit: [Signal<Local, Bit>; 2],
    b_hit: [Signal<Local, Bit>; 2],
    evict: [Signal<Local, Bit>; 2],
    any_evict: Signal<Local, Bit>,
    flushing: Signal<Local, Bit>,
    found: Signal<Local, Bit>,
    flush_a: [Signal<Local, Bit>; 2],
    flush_b: [Signal<Local, Bit>; 2],
    fire: [Signal<Local, Bit>; 2],
    win_mask: Constant<Bits<16>>,
    one64: Constant<Bits<64>>,
    zero16: Constant<Bits<16>>,
    zero64: Constant<Bits<64>>,
}

impl Default for CvuTerminator {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_id: Default::default(),
            in_taken: Default::default(),
            flush: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_taken: Default::default(),
            out_base: Default::default(),
            out_bitmap: Default::default(),
            empty: Default::default(),
            a_valid: Default::default(),
            a_base: Default::default(),
            a_bits: Default::default(),
            b_valid: Default::default(),
            b_base: Default::default(),
            b_bits: Default::default(),
            older_b: Default::default(),
            win: Default::default(),
            id_bit: Default::default(),
            sel: Default::default(),
            a_hit: Default::default(),
            b_hit: Default::default(),
            evict: Default::default(),
            any_evict: Default::default(),
            flushing: Default::default(),
            found: Default::default(),
            flush_a: Default::default(),
            flush_b: Default::default(),
            fire: Default::default(),
            win_mask: Constant::new(Bits::<16>::from(0xffc0u64)),
            one64: Constant::new(Bits::<64>::from(1u64)),
            zero16: Constant::new(Bits::default()),
            zero64: Constant::new(Bits::default()),
        }
    }
}

impl Logic for CvuTerminator {
    #[hdl_gen]
    fn update(&mut self) {
        for t in 0..2 {
            self.a_valid[t].clock.next = self.clock.val();
            self.a_base[t].clock.next = self.clock.val();
            self.a_bits[t].clock.next = self.clock.val();
            self.b_valid[t].clock.next = self.clock.val();
            self.b_base[t].clock.next = self.clock.val();
            self.b_bits[t].clock.next = self.clock.val();
            self.older_b[t].clock.next = self.clock.val();
            self.a_valid[t].d.next = self.a_valid[t].q.val();
            self.a_base[t].d.next = self.a_base[t].q.val();
            self.a_bits[t].d.next = self.a_bits[t].q.val();
            self.b_valid[t].d.next = self.b_valid[t].q.val();
            self.b_base[t].d.next = self.b_base[t].q.val();
            self.b_bits[t].d.next = self.b_bits[t].q.val();
            self.older_b[t].d.next = self.older_b[t].q.val();
        }
        self.win.next = self.in_id.val() & self.win_mask.val();
        self.id_bit.next = self.one64.val() << self.in_id.val().get_bits::<6>(0);
        self.sel[0].next = self.in_valid.val() & !self.in_taken.val();
        self.sel[1].next = self.in_valid.val() & self.in_taken.val();
        self.any_evict.next = false;
        for t in 0..2 {
            self.a_hit[t].next =
                self.a_valid[t].q.val() & (self.a_base[t].q.val() == self.win.val());
            self.b_hit[t].next =
                self.b_valid[t].q.val() & (self.b_base[t].q.val() == self.win.val());
            self.evict[t].next = self.sel[t].val()
                & !self.a_hit[t].val()
                & !self.b_hit[t].val()
                & self.a_valid[t].q.val()
                & self.b_valid[t].q.val();
            self.any_evict.next = self.any_evict.val() | self.evict[t].val();
        }
        // Flush: the first open slot in the order a0, b0, a1, b1.
        self.flushing.next = self.flush.val() & !self.in_valid.val();
        self.found.next = false;
        for t in 0..2 {
            self.flush_a[t].next =
                self.flushing.val() & self.a_valid[t].q.val() & !self.found.val();
            self.found.next = self.found.val() | self.flush_a[t].val();
            self.flush_b[t].next =
                self.flushing.val() & self.b_valid[t].q.val() & !self.found.val();
            self.found.next = self.found.val() | self.flush_b[t].val();
        }
        // Batch out.
        self.out_valid.next = self.any_evict.val() | self.found.val();
        self.out_taken.next = false;
        self.out_base.next = self.zero16.val();
        self.out_bitmap.next = self.zero64.val();
        for t in 0..2 {
            if (self.evict[t].val() & !self.older_b[t].q.val()) | self.flush_a[t].val() {
                self.out_taken.next = self.sel[1].val() | self.flush_a[1].val();
                self.out_base.next = self.a_base[t].q.val();
                self.out_bitmap.next = self.a_bits[t].q.val();
            }
            if (self.evict[t].val() & self.older_b[t].q.val()) | self.flush_b[t].val() {
                self.out_taken.next = self.sel[1].val() | self.flush_b[1].val();
                self.out_base.next = self.b_base[t].q.val();
                self.out_bitmap.next = self.b_bits[t].q.val();
            }
        }
        self.in_ready.next = !self.any_evict.val() | self.out_ready.val();
        self.empty.next = !(self.a_valid[0].q.val()
            | self.a_valid[1].q.val()
            | self.b_valid[0].q.val()
            | self.b_valid[1].q.val());
        // Slot updates.
        for t in 0..2 {
            self.fire[t].next = self.sel[t].val() & self.in_ready.val();
            if self.fire[t].val() {
                if self.a_hit[t].val() {
                    self.a_bits[t].d.next = self.a_bits[t].q.val() | self.id_bit.val();
                } else if self.b_hit[t].val() {
                    self.b_bits[t].d.next = self.b_bits[t].q.val() | self.id_bit.val();
                } else if !self.a_valid[t].q.val()
                    | (self.evict[t].val() & !self.older_b[t].q.val())
                {
                    self.a_valid[t].d.next = true;
                    self.a_base[t].d.next = self.win.val();
                    self.a_bits[t].d.next = self.id_bit.val();
                    self.older_b[t].d.next = true;
                } else {
                    self.b_valid[t].d.next = true;
                    self.b_base[t].d.next = self.win.val();
                    self.b_bits[t].d.next = self.id_bit.val();
                    self.older_b[t].d.next = false;
                }
            }
            if self.flush_a[t].val() & self.out_ready.val() {
                self.a_valid[t].d.next = false;
                self.a_base[t].d.next = self.zero16.val();
                self.a_bits[t].d.next = self.zero64.val();
            }
            if self.flush_b[t].val() & self.out_ready.val() {
                self.b_valid[t].d.next = false;
                self.b_base[t].d.next = self.zero16.val();
                self.b_bits[t].d.next = self.zero64.val();
            }
            if self.reset.val() {
                self.a_valid[t].d.next = false;
                self.a_base[t].d.next = self.zero16.val();
                self.a_bits[t].d.next = self.zero64.val();
                self.b_valid[t].d.next = false;
                self.b_base[t].d.next = self.zero16.val();
                self.b_bits[t].d.next = self.zero64.val();
                self.older_b[t].d.next = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = CvuTerminator::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("cvu_terminator", &vlog).unwrap();
    }
}
