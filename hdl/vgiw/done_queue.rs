//! Done queue of the VGIW core (`vgiw_core.rs`): holds the threads one fabric thread
//! port reports finished until the terminator CVU takes them. The fabric's `done_*`
//! have no ready (a finished thread is never held back inside the fabric), so the
//! queue cannot refuse a push: the core injects a thread only while fewer than `D`
//! are injected and not yet taken, which keeps every queue from overflowing.
//!
//! ```text
//!  push (tid, taken) ─> slot[tail] ... slot[head] ─> out (tid, taken), popped on out_ready
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `push`, `push_tid`, `push_taken` | in | 1, 16, 1 | a finished thread and its branch outcome (no ready) |
//! | `out_valid`, `out_ready`, `out_tid`, `out_taken` | out, in, out, out | 1, 1, 16, 1 | the oldest thread; 0 when empty |
//! | `overflow` | out | 1 | sticky until reset: a push found the queue full (it was dropped) |
//!
//! Timing: a pushed thread is offered from the next cycle; a full queue may push and
//! pop in the same cycle. Storage: `D x 17` bits + `2 QW + CW + 1` flip-flops.
use rust_hdl::prelude::*;

/// FIFO of `D = 2^QW` finished threads; `CW = QW + 1` count bits.
#[derive(LogicBlock)]
pub struct DoneQueue<const D: usize, const QW: usize, const CW: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empty, `overflow` cleared.
    pub reset: Signal<In, Bit>,
    pub push: Signal<In, Bit>,
    pub push_tid: Signal<In, Bits<16>>,
    pub push_taken: Signal<In, Bit>,
    pub out_valid: Signal<Out, Bit>,
    pub out_ready: Signal<In, Bit>,
    pub out_tid: Signal<Out, Bits<16>>,
    pub out_taken: Signal<Out, Bit>,
    pub overflow: Signal<Out, Bit>,
    slot_tid: [DFF<Bits<16>>; D],
    slot_taken: [DFF<Bit>; D],
    head: DFF<Bits<QW>>,
    tail: DFF<Bits<QW>>,
    count: DFF<Bits<CW>>,
    lost: DFF<Bit>,
    index: [Constant<Bits<QW>>; D],
    step: Constant<Bits<QW>>,
    no_tid: Constant<Bits<16>>,
    one: Constant<Bits<CW>>,
    full: Constant<Bits<CW>>,
    empty: Constant<Bits<CW>>,
    write: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
}

impl<const D: usize, const QW: usize, const CW: usize> Default for DoneQueue<D, QW, CW> {
    fn default() -> Self {
        assert!(
            (1..=8).contains(&QW) && D == 1 << QW && CW == QW + 1,
            "done queue: D = 2^QW with QW in 1..=8 and CW = QW + 1 (got D = {D}, QW = {QW}, CW = {CW})"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            push_tid: Default::default(),
            push_taken: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_tid: Default::default(),
            out_taken: Default::default(),
            overflow: Default::default(),
            slot_tid: array_init::array_init(|_| Default::default()),
            slot_taken: array_init::array_init(|_| Default::default()),
            head: Default::default(),
            tail: Default::default(),
            count: Default::default(),
            lost: Default::default(),
            index: array_init::array_init(|i| Constant::new(Bits::<QW>::from(i as u64))),
            step: Constant::new(Bits::<QW>::from(1u64)),
            no_tid: Constant::new(Bits::<16>::default()),
            one: Constant::new(Bits::<CW>::from(1u64)),
            full: Constant::new(Bits::<CW>::from(D as u64)),
            empty: Constant::new(Bits::<CW>::default()),
            write: Default::default(),
            pop: Default::default(),
        }
    }
}

impl<const D: usize, const QW: usize, const CW: usize> Logic for DoneQueue<D, QW, CW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, head, tail, count, lost);
        self.out_valid.next = self.count.q.val() != self.empty.val();
        self.pop.next = self.out_valid.val() & self.out_ready.val();
        // A full queue takes a push only when it pops in the same cycle.
        self.write.next =
            self.push.val() & ((self.count.q.val() != self.full.val()) | self.pop.val());
        self.out_tid.next = self.no_tid.val();
        self.out_taken.next = false;
        for i in 0..D {
            self.slot_tid[i].clock.next = self.clock.val();
            self.slot_taken[i].clock.next = self.clock.val();
            self.slot_tid[i].d.next = self.slot_tid[i].q.val();
            self.slot_taken[i].d.next = self.slot_taken[i].q.val();
            if self.write.val() & (self.tail.q.val() == self.index[i].val()) {
                self.slot_tid[i].d.next = self.push_tid.val();
                self.slot_taken[i].d.next = self.push_taken.val();
            }
            if self.out_valid.val() & (self.head.q.val() == self.index[i].val()) {
                self.out_tid.next = self.slot_tid[i].q.val();
                self.out_taken.next = self.slot_taken[i].q.val();
            }
        }
        if self.write.val() {
            self.tail.d.next = self.tail.q.val() + self.step.val();
        }
        if self.pop.val() {
            self.head.d.next = self.head.q.val() + self.step.val();
        }
        if self.write.val() & !self.pop.val() {
            self.count.d.next = self.count.q.val() + self.one.val();
        }
        if self.pop.val() & !self.write.val() {
            self.count.d.next = self.count.q.val() - self.one.val();
        }
        self.lost.d.next = self.lost.q.val() | (self.push.val() & !self.write.val());
        self.overflow.next = self.lost.q.val();
        if self.reset.val() {
            self.head.d.next = self.index[0].val();
            self.tail.d.next = self.index[0].val();
            self.count.d.next = self.empty.val();
            self.lost.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = DoneQueue::<4, 2, 3>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("done_queue_4", &vlog).unwrap();
    }

    /// Five pushes into four slots with nothing popped: the fifth is lost and flagged;
    /// the four come out oldest first with their outcomes.
    #[test]
    fn keeps_order_and_flags_overflow() {
        let mut uut = DoneQueue::<4, 2, 3>::default();
        uut.connect_all();
        let step = |uut: &mut DoneQueue<4, 2, 3>, high: bool| {
            uut.clock.next = Clock::from(high);
            for _ in 0..100 {
                uut.update_all();
                if !uut.has_changed() {
                    break;
                }
            }
        };
        let mut out = vec![];
        for cycle in 0..14u64 {
            step(&mut uut, false);
            uut.reset.next = cycle == 0;
            uut.push.next = (1..=5).contains(&cycle);
            uut.push_tid.next = (100 + cycle).into();
            uut.push_taken.next = cycle % 2 == 1;
            uut.out_ready.next = cycle >= 8;
            step(&mut uut, false);
            if uut.out_valid.val() && uut.out_ready.val() {
                out.push((uut.out_tid.val().index(), uut.out_taken.val()));
            }
            if cycle == 7 {
                assert!(uut.overflow.val(), "the fifth push found the queue full");
            }
            step(&mut uut, true);
        }
        assert_eq!(
            out,
            vec![(101, true), (102, false), (103, true), (104, false)]
        );
    }
}
