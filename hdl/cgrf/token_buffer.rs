//! Token buffer with virtual channels (`vgiw-control-flow-coalescing.txt` §3.5; SPEC §6):
//! one entry per virtual channel (thread slot), up to three operands with valid bits,
//! a configured operand count; an entry whose configured operands are all present is
//! ready, and one ready entry fires per cycle, chosen round robin.
//!
//! ```text
//!  a ──> slot 0 ─┐  entry v = [ full_a full_b full_c | data_a data_b data_c | tid ]
//!  b ──> slot 1 ─┼─> ready(v) = full_a & (full_b | n<2) & (full_c | n<3)
//!  c ──> slot 2 ─┘        │
//!                         └─> round robin after `last` ──> out (vc, tid, a, b, c)
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `cfg_valid`, `cfg_operands` | in | 1, 2 | loads the operand count (1..3) on this edge; 0 is ignored |
//! | `a_*`, `b_*`, `c_*` | token links (`cgrf/mod.rs`) | | operands 0, 1, 2 of the entry `x_vc` |
//! | `out_valid`, `out_ready` | out, in | 1, 1 | a ready entry is presented; it fires on an edge with `out_ready` |
//! | `out_vc`, `out_tid` | out | VB, 16 | the fired entry's channel and thread (0 when `out_valid` is low) |
//! | `out_a`, `out_b`, `out_c` | out | 32 each | its operands; an operand beyond the count reads 0 |
//! | `busy` | out | 1 | some operand is held |
//! | `tid_error` | out | 1 | sticky: an operand arrived for an entry holding another thread |
//!
//! Timing: an operand accepted on edge `t` can complete its entry, which is presented
//! from cycle `t+1` (its fire edge is `t+1` at the earliest). One entry fires per cycle
//! while `out_ready` is high and some entry is ready; operands are accepted on all three
//! links in the same cycle. Every output is combinational from registers, except that
//! `x_ready` also looks at `x_vc` (a per-channel credit).
//!
//! Storage: `VCS x (3 x 32 data + 3 valid + 16 tid) + VB (last grant) + 2 (count)
//! + 1 (error)` flip-flops: 16 channels = 1 847 (the `token_buffer` preset), 32 = 3 688.
//!
//! Choices where the paper is silent:
//! - Operand slot full: `x_ready` is low for that channel (backpressure). Nothing is
//!   overwritten or dropped; a slot is freed only when its entry fires, so the token
//!   waits until the previous thread of that channel has fired. A link beyond the
//!   configured count never accepts (`x_ready` low): a misrouted token stalls visibly
//!   instead of filling a slot nobody reads.
//! - `x_ready` does not look at the same-edge fire of the channel (the slot frees one
//!   cycle later): a channel is reused by a new thread long after its previous one
//!   fired, and the short path keeps `x_ready` independent of `out_ready`.
//! - The entry's tid is taken from the first operand that arrives (link a before b
//!   before c on the same edge). A later operand with another tid breaks the rule
//!   that a channel holds one thread (§3.5): it is still stored (never dropped) and
//!   raises the sticky `tid_error` (cleared by reset).
//! - Fairness: round robin over the ready entries, starting after the last fired
//!   channel (`lib/round_robin_arbiter.rs`): a ready entry waits at most `VCS - 1`
//!   fires.
//! - Configuration takes effect on the next cycle and is meant to be written while
//!   the buffer is empty (`busy` low), at kernel load; a fire clears all three valid
//!   bits of its entry. Reset clears the valid bits, the last grant, the error and sets
//!   the count to 1 (held as `count - 1`, so power-on equals reset). Data and tids are
//!   not reset: they are only visible once written.
use crate::lib::round_robin_arbiter::RoundRobinArbiter;
use rust_hdl::prelude::*;

/// Token buffer with `VCS = 2^VB` virtual channels (`VB` in 1..=5).
#[derive(LogicBlock)]
pub struct TokenBuffer<const VCS: usize, const VB: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empties every entry, count back to 1.
    pub reset: Signal<In, Bit>,
    // configuration port
    /// Loads `cfg_operands` into the count register on this edge.
    pub cfg_valid: Signal<In, Bit>,
    /// Operands an entry needs, 1..3 (0 is ignored).
    pub cfg_operands: Signal<In, Bits<2>>,
    // operand link a (slot 0)
    /// A token is offered on link a.
    pub a_valid: Signal<In, Bit>,
    /// Slot 0 of channel `a_vc` is free and link a is configured.
    pub a_ready: Signal<Out, Bit>,
    /// Channel (entry) of the token.
    pub a_vc: Signal<In, Bits<VB>>,
    /// Thread id of the token.
    pub a_tid: Signal<In, Bits<16>>,
    /// Operand value.
    pub a_data: Signal<In, Bits<32>>,
    // operand link b (slot 1)
    /// A token is offered on link b.
    pub b_valid: Signal<In, Bit>,
    /// Slot 1 of channel `b_vc` is free and the count is at least 2.
    pub b_ready: Signal<Out, Bit>,
    /// Channel (entry) of the token.
    pub b_vc: Signal<In, Bits<VB>>,
    /// Thread id of the token.
    pub b_tid: Signal<In, Bits<16>>,
    /// Operand value.
    pub b_data: Signal<In, Bits<32>>,
    // operand link c (slot 2)
    /// A token is offered on link c.
    pub c_valid: Signal<In, Bit>,
    /// Slot 2 of channel `c_vc` is free and the count is 3.
    pub c_ready: Signal<Out, Bit>,
    /// Channel (entry) of the token.
    pub c_vc: Signal<In, Bits<VB>>,
    /// Thread id of the token.
    pub c_tid: Signal<In, Bits<16>>,
    /// Operand value.
    pub c_data: Signal<In, Bits<32>>,
    // fired entry out
    /// Some entry is ready; the presented one fires on an edge with `out_ready`.
    pub out_valid: Signal<Out, Bit>,
    /// The consumer takes the presented entry.
    pub out_ready: Signal<In, Bit>,
    /// Channel of the presented entry (0 when `out_valid` is low).
    pub out_vc: Signal<Out, Bits<VB>>,
    /// Thread of the presented entry (0 when `out_valid` is low).
    pub out_tid: Signal<Out, Bits<16>>,
    /// Operand 0 (0 when `out_valid` is low).
    pub out_a: Signal<Out, Bits<32>>,
    /// Operand 1 (0 when invalid or the count is below 2).
    pub out_b: Signal<Out, Bits<32>>,
    /// Operand 2 (0 when invalid or the count is below 3).
    pub out_c: Signal<Out, Bits<32>>,
    // status
    /// Some operand is held.
    pub busy: Signal<Out, Bit>,
    /// Sticky: an operand's tid differed from its entry's tid.
    pub tid_error: Signal<Out, Bit>,
    /// Valid bits of slots 0, 1, 2, one bit per channel.
    full_a: DFF<Bits<VCS>>,
    full_b: DFF<Bits<VCS>>,
    full_c: DFF<Bits<VCS>>,
    data_a: [DFF<Bits<32>>; VCS],
    data_b: [DFF<Bits<32>>; VCS],
    data_c: [DFF<Bits<32>>; VCS],
    tid: [DFF<Bits<16>>; VCS],
    /// Last fired channel (round-robin pointer).
    last: DFF<Bits<VB>>,
    /// Configured count minus one.
    count_minus_one: DFF<Bits<2>>,
    error: DFF<Bit>,
    arbiter: RoundRobinArbiter<VCS, VB>,
    // combinational temporaries
    need_b: Signal<Local, Bit>,
    need_c: Signal<Local, Bit>,
    skip_b: Signal<Local, Bits<VCS>>,
    skip_c: Signal<Local, Bits<VCS>>,
    /// Some slot of the entry is full, per channel.
    held: Signal<Local, Bits<VCS>>,
    a_bit: Signal<Local, Bits<VCS>>,
    b_bit: Signal<Local, Bits<VCS>>,
    c_bit: Signal<Local, Bits<VCS>>,
    a_take: Signal<Local, Bit>,
    b_take: Signal<Local, Bit>,
    c_take: Signal<Local, Bit>,
    /// The link writes the entry's tid (entry empty, no earlier link writes it now).
    a_new: Signal<Local, Bit>,
    b_new: Signal<Local, Bit>,
    c_new: Signal<Local, Bit>,
    /// The tid the link's entry holds after this edge (when it is not new).
    a_ref: Signal<Local, Bits<16>>,
    b_ref: Signal<Local, Bits<16>>,
    c_ref: Signal<Local, Bits<16>>,
    fire: Signal<Local, Bit>,
    fire_bit: Signal<Local, Bits<VCS>>,
    ids: [Constant<Bits<VB>>; VCS],
    one: Constant<Bits<VCS>>,
    zero: Constant<Bits<VCS>>,
    all: Constant<Bits<VCS>>,
    zero_vc: Constant<Bits<VB>>,
    zero16: Constant<Bits<16>>,
    zero32: Constant<Bits<32>>,
    count0: Constant<Bits<2>>,
    count1: Constant<Bits<2>>,
    count2: Constant<Bits<2>>,
}

impl<const VCS: usize, const VB: usize> Default for TokenBuffer<VCS, VB> {
    fn default() -> Self {
        assert!(
            (1..=5).contains(&VB),
            "token buffer: VB must be 1..=5 (2 to 32 channels), got {VB}"
        );
        assert_eq!(VCS, 1 << VB, "token buffer: VCS must be 2^VB");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cfg_valid: Default::default(),
            cfg_operands: Default::default(),
            a_valid: Default::default(),
            a_ready: Default::default(),
            a_vc: Default::default(),
            a_tid: Default::default(),
            a_data: Default::default(),
            b_valid: Default::default(),
            b_ready: Default::default(),
            b_vc: Default::default(),
            b_tid: Default::default(),
            b_data: Default::default(),
            c_valid: Default::default(),
            c_ready: Default::default(),
            c_vc: Default::default(),
            c_tid: Default::default(),
            c_data: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_vc: Default::default(),
            out_tid: Default::default(),
            out_a: Default::default(),
            out_b: Default::default(),
            out_c: Default::default(),
            busy: Default::default(),
            tid_error: Default::default(),
            full_a: Default::default(),
            full_b: Default::default(),
            full_c: Default::default(),
            data_a: array_init::array_init(|_| Default::default()),
            data_b: array_init::array_init(|_| Default::default()),
            data_c: array_init::array_init(|_| Default::default()),
            tid: array_init::array_init(|_| Default::default()),
            last: Default::default(),
            count_minus_one: Default::default(),
            error: Default::default(),
            arbiter: Default::default(),
            need_b: Default::default(),
            need_c: Default::default(),
            skip_b: Default::default(),
            skip_c: Default::default(),
            held: Default::default(),
            a_bit: Default::default(),
            b_bit: Default::default(),
            c_bit: Default::default(),
            a_take: Default::default(),
            b_take: Default::default(),
            c_take: Default::default(),
            a_new: Default::default(),
            b_new: Default::default(),
            c_new: Default::default(),
            a_ref: Default::default(),
            b_ref: Default::default(),
            c_ref: Default::default(),
            fire: Default::default(),
            fire_bit: Default::default(),
            ids: array_init::array_init(|i| Constant::new(Bits::<VB>::from(i as u64))),
            one: Constant::new(Bits::<VCS>::from(1u64)),
            zero: Constant::new(Bits::default()),
            all: Constant::new(Bits::<VCS>::mask()),
            zero_vc: Constant::new(Bits::default()),
            zero16: Constant::new(Bits::default()),
            zero32: Constant::new(Bits::default()),
            count0: Constant::new(Bits::<2>::from(0u64)),
            count1: Constant::new(Bits::<2>::from(1u64)),
            count2: Constant::new(Bits::<2>::from(2u64)),
        }
    }
}

impl<const VCS: usize, const VB: usize> Logic for TokenBuffer<VCS, VB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            full_a,
            full_b,
            full_c,
            last,
            count_minus_one,
            error
        );
        for v in 0..VCS {
            self.data_a[v].clock.next = self.clock.val();
            self.data_a[v].d.next = self.data_a[v].q.val();
            self.data_b[v].clock.next = self.clock.val();
            self.data_b[v].d.next = self.data_b[v].q.val();
            self.data_c[v].clock.next = self.clock.val();
            self.data_c[v].d.next = self.data_c[v].q.val();
            self.tid[v].clock.next = self.clock.val();
            self.tid[v].d.next = self.tid[v].q.val();
        }
        self.need_b.next = self.count_minus_one.q.val() != self.count0.val();
        self.need_c.next = self.count_minus_one.q.val() == self.count2.val();
        self.held.next = self.full_a.q.val() | self.full_b.q.val() | self.full_c.q.val();
        self.busy.next = self.held.val().any();
        self.tid_error.next = self.error.q.val();

        // Ready entries and the round-robin choice.
        // Slots beyond the count count as present.
        self.skip_b.next = self.all.val();
        if self.need_b.val() {
            self.skip_b.next = self.zero.val();
        }
        self.skip_c.next = self.all.val();
        if self.need_c.val() {
            self.skip_c.next = self.zero.val();
        }
        self.arbiter.request.next = self.full_a.q.val()
            & (self.full_b.q.val() | self.skip_b.val())
            & (self.full_c.q.val() | self.skip_c.val());
        self.arbiter.last.next = self.last.q.val();
        self.out_valid.next = self.arbiter.grant_valid.val();
        self.out_vc.next = self.zero_vc.val();
        self.out_tid.next = self.zero16.val();
        self.out_a.next = self.zero32.val();
        self.out_b.next = self.zero32.val();
        self.out_c.next = self.zero32.val();
        if self.arbiter.grant_valid.val() {
            self.out_vc.next = self.arbiter.grant.val();
            for v in 0..VCS {
                if self.arbiter.grant.val() == self.ids[v].val() {
                    self.out_tid.next = self.tid[v].q.val();
                    self.out_a.next = self.data_a[v].q.val();
                    if self.need_b.val() {
                        self.out_b.next = self.data_b[v].q.val();
                    }
                    if self.need_c.val() {
                        self.out_c.next = self.data_c[v].q.val();
                    }
                }
            }
        }
        self.fire.next = self.arbiter.grant_valid.val() & self.out_ready.val();
        self.fire_bit.next = self.zero.val();
        if self.fire.val() {
            self.fire_bit.next = self.one.val() << self.arbiter.grant.val();
            self.last.d.next = self.arbiter.grant.val();
        }

        // Operand links: a slot accepts when it is free and configured.
        self.a_bit.next = self.one.val() << self.a_vc.val();
        self.b_bit.next = self.one.val() << self.b_vc.val();
        self.c_bit.next = self.one.val() << self.c_vc.val();
        self.a_ready.next = !(self.full_a.q.val() & self.a_bit.val()).any();
        self.b_ready.next = !(self.full_b.q.val() & self.b_bit.val()).any() & self.need_b.val();
        self.c_ready.next = !(self.full_c.q.val() & self.c_bit.val()).any() & self.need_c.val();
        self.a_take.next = self.a_valid.val() & self.a_ready.val();
        self.b_take.next = self.b_valid.val() & self.b_ready.val();
        self.c_take.next = self.c_valid.val() & self.c_ready.val();

        // Which link writes the entry's tid, and what a later link is compared with.
        self.a_new.next = !(self.held.val() & self.a_bit.val()).any();
        self.b_new.next = !(self.held.val() & self.b_bit.val()).any();
        self.a_ref.next = self.zero16.val();
        self.b_ref.next = self.zero16.val();
        self.c_new.next = !(self.held.val() & self.c_bit.val()).any();
        self.c_ref.next = self.zero16.val();
        for v in 0..VCS {
            if self.a_vc.val() == self.ids[v].val() {
                self.a_ref.next = self.tid[v].q.val();
            }
            if self.b_vc.val() == self.ids[v].val() {
                self.b_ref.next = self.tid[v].q.val();
            }
            if self.c_vc.val() == self.ids[v].val() {
                self.c_ref.next = self.tid[v].q.val();
            }
        }
        if self.b_take.val() & (self.c_vc.val() == self.b_vc.val()) {
            self.c_ref.next = self.b_tid.val();
            self.c_new.next = false;
        }
        if self.a_take.val() & (self.b_vc.val() == self.a_vc.val()) {
            self.b_ref.next = self.a_tid.val();
            self.b_new.next = false;
        }
        if self.a_take.val() & (self.c_vc.val() == self.a_vc.val()) {
            self.c_ref.next = self.a_tid.val();
            self.c_new.next = false;
        }
        if (self.a_take.val() & !self.a_new.val() & (self.a_tid.val() != self.a_ref.val()))
            | (self.b_take.val() & !self.b_new.val() & (self.b_tid.val() != self.b_ref.val()))
            | (self.c_take.val() & !self.c_new.val() & (self.c_tid.val() != self.c_ref.val()))
        {
            self.error.d.next = true;
        }

        // Valid bits: set by the links, cleared by the fire (never the same slot).
        self.full_a.d.next = self.full_a.q.val() & !self.fire_bit.val();
        self.full_b.d.next = self.full_b.q.val() & !self.fire_bit.val();
        self.full_c.d.next = self.full_c.q.val() & !self.fire_bit.val();
        if self.a_take.val() {
            self.full_a.d.next = (self.full_a.q.val() & !self.fire_bit.val()) | self.a_bit.val();
        }
        if self.b_take.val() {
            self.full_b.d.next = (self.full_b.q.val() & !self.fire_bit.val()) | self.b_bit.val();
        }
        if self.c_take.val() {
            self.full_c.d.next = (self.full_c.q.val() & !self.fire_bit.val()) | self.c_bit.val();
        }
        for v in 0..VCS {
            if self.c_take.val() & (self.c_vc.val() == self.ids[v].val()) {
                self.data_c[v].d.next = self.c_data.val();
                if self.c_new.val() {
                    self.tid[v].d.next = self.c_tid.val();
                }
            }
            if self.b_take.val() & (self.b_vc.val() == self.ids[v].val()) {
                self.data_b[v].d.next = self.b_data.val();
                if self.b_new.val() {
                    self.tid[v].d.next = self.b_tid.val();
                }
            }
            if self.a_take.val() & (self.a_vc.val() == self.ids[v].val()) {
                self.data_a[v].d.next = self.a_data.val();
                if self.a_new.val() {
                    self.tid[v].d.next = self.a_tid.val();
                }
            }
        }

        if self.cfg_valid.val() & (self.cfg_operands.val() != self.count0.val()) {
            self.count_minus_one.d.next = self.cfg_operands.val() - self.count1.val();
        }
        if self.reset.val() {
            self.full_a.d.next = self.zero.val();
            self.full_b.d.next = self.zero.val();
            self.full_c.d.next = self.zero.val();
            self.last.d.next = self.zero_vc.val();
            self.count_minus_one.d.next = self.count0.val();
            self.error.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = TokenBuffer::<4, 2>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("token_buffer_4", &vlog).unwrap();
    }

    fn step(uut: &mut TokenBuffer<4, 2>, high: bool) {
        uut.clock.next = Clock::from(high);
        assert!(simulate(uut, 100));
    }

    /// Two operands of channel 2 arrive on different cycles; the entry fires once
    /// both are there, with the thread's id and both values.
    #[test]
    fn fires_when_both_operands_are_present() {
        let mut uut = TokenBuffer::<4, 2>::default();
        uut.connect_all();
        step(&mut uut, false);
        uut.reset.next = true;
        uut.cfg_valid.next = false;
        step(&mut uut, true);
        step(&mut uut, false);
        uut.reset.next = false;
        uut.cfg_valid.next = true;
        uut.cfg_operands.next = 2u64.into();
        step(&mut uut, true);
        step(&mut uut, false);
        uut.cfg_valid.next = false;
        uut.out_ready.next = true;
        uut.a_valid.next = true;
        uut.a_vc.next = 2u64.into();
        uut.a_tid.next = 77u64.into();
        uut.a_data.next = 5u64.into();
        step(&mut uut, false);
        assert!(uut.a_ready.val());
        step(&mut uut, true);
        step(&mut uut, false);
        uut.a_valid.next = false;
        step(&mut uut, false);
        assert!(!uut.out_valid.val(), "one operand of two: not ready");
        uut.b_valid.next = true;
        uut.b_vc.next = 2u64.into();
        uut.b_tid.next = 77u64.into();
        uut.b_data.next = 9u64.into();
        step(&mut uut, true);
        step(&mut uut, false);
        uut.b_valid.next = false;
        step(&mut uut, false);
        assert!(uut.out_valid.val());
        assert_eq!(uut.out_vc.val(), Bits::<2>::from(2u64));
        assert_eq!(uut.out_tid.val(), Bits::<16>::from(77u64));
        assert_eq!(uut.out_a.val(), Bits::<32>::from(5u64));
        assert_eq!(uut.out_b.val(), Bits::<32>::from(9u64));
        step(&mut uut, true);
        step(&mut uut, false);
        assert!(!uut.out_valid.val() && !uut.busy.val() && !uut.tid_error.val());
    }
}
