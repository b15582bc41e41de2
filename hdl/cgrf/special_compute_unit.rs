//! Special compute unit, SCU (`vgiw-control-flow-coalescing.txt` §3.5 "Special compute
//! units"; SPEC §6): "virtual pipelining" of a non-pipelined operation. `COPIES`
//! instances of a 32-bit divider (`cgrf/divider_copy.rs`); a new operation starts on
//! any cycle a copy is free, and the results leave in completion order.
//!
//! ```text
//!  in (vc, tid, a, b) ─> |a|, |b|, sign ─> copy[tail] ... copy[head] ─> rem or quo ─> ± ─> out
//!                                       ring of COPIES copies: tail = next free, head = oldest
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `opcode` | in | 2 | configuration: 0 `divu`, 1 `div`, 2 `remu`, 3 `rem` (RISC-V semantics) |
//! | `in_valid`, `in_ready` | in, out | 1, 1 | operation handshake |
//! | `in_vc`, `in_tid` | in | VB, 16 | the thread, carried to the result |
//! | `in_a`, `in_b` | in | 32, 32 | dividend, divisor |
//! | `out_valid`, `out_ready` | out, in | 1, 1 | result token handshake |
//! | `out_vc`, `out_tid`, `out_data` | out | VB, 16, 32 | the result token (0 when `out_valid` is low) |
//! | `in_flight` | out | NW | operations accepted and not yet delivered |
//!
//! The input is the fire port of a token buffer (`cgrf/token_buffer.rs`: `out_vc`,
//! `out_tid`, `out_a`, `out_b`): the fabric puts the unit's token buffer in front, so
//! the SCU itself stores no operands.
//!
//! Timing: an operation accepted on edge `t` is presented from cycle `t + L`, with
//! latency `L = 32 / R + 1` (the load edge, then `32 / R` step edges). A copy is busy
//! from its load edge until its result is taken. `in_ready = (in_flight < COPIES) |
//! (out_valid & out_ready)`: a copy freed on an edge can be loaded on the same edge, so
//! with `COPIES >= L` and an always-ready consumer the unit accepts one operation per
//! cycle (measured in `testbenches/tests/special_compute_unit.rs`: 1.000 operations
//! per cycle with `COPIES = L = 9`; 0.336 with 3 copies, i.e. `COPIES / L`). `in_ready` depends on
//! `out_ready`, never on `in_valid`.
//!
//! Storage: `COPIES x (3 x 32 + SW + VB + 16 + 1)` + `2 x CW + NW` flip-flops.
//!
//! Choices where the paper is silent:
//! - Every operation takes the same `L` cycles (no early exit), so operations complete
//!   in the order they start and the copies are used as a ring: the next free copy is
//!   the ring's tail and the oldest (first to complete) is its head. "Completion order"
//!   is therefore the issue order, and a stalled consumer only holds the head.
//! - Divide by zero and overflow as in RISC-V M: `x / 0 = all ones`, `x % 0 = x`,
//!   `-2^31 / -1 = -2^31`, `-2^31 % -1 = 0`. Signed operations divide absolute values
//!   and negate the result after the head multiplexer (one negator for all copies):
//!   the quotient when exactly one operand is negative and the divisor is not 0, the
//!   remainder when the dividend is negative.
//! - The opcode is static configuration (one SCU, one operation), read when an
//!   operation starts (for the operands' signs) and when it leaves (quotient or
//!   remainder); change it only while the unit is empty.
//! - Reset empties the ring (results in flight are dropped).
use crate::cgrf::divider_copy::DividerCopy;
use rust_hdl::prelude::*;

/// SCU with `COPIES` dividers retiring `R` bits per cycle; `2^VB` virtual channels;
/// `CW = max(1, clog2(COPIES))`, `NW = clog2(COPIES + 1)`, `SW = clog2(32 / R + 1)`.
#[derive(LogicBlock)]
pub struct SpecialComputeUnit<
    const VB: usize,
    const COPIES: usize,
    const CW: usize,
    const NW: usize,
    const R: usize,
    const SW: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empties the ring.
    pub reset: Signal<In, Bit>,
    // configuration
    /// 0 `divu`, 1 `div`, 2 `remu`, 3 `rem`.
    pub opcode: Signal<In, Bits<2>>,
    // operation in (a token buffer's fire port)
    /// An operation is offered.
    pub in_valid: Signal<In, Bit>,
    /// A copy is free (or is freed on this edge): the offered operation is taken.
    pub in_ready: Signal<Out, Bit>,
    pub in_vc: Signal<In, Bits<VB>>,
    pub in_tid: Signal<In, Bits<16>>,
    /// Dividend.
    pub in_a: Signal<In, Bits<32>>,
    /// Divisor.
    pub in_b: Signal<In, Bits<32>>,
    // result token out
    /// The oldest operation's result is presented.
    pub out_valid: Signal<Out, Bit>,
    /// The consumer takes the result on this edge.
    pub out_ready: Signal<In, Bit>,
    pub out_vc: Signal<Out, Bits<VB>>,
    pub out_tid: Signal<Out, Bits<16>>,
    pub out_data: Signal<Out, Bits<32>>,
    /// Operations accepted and not yet delivered (at most `COPIES`).
    pub in_flight: Signal<Out, Bits<NW>>,
    copies: [DividerCopy<R, SW>; COPIES],
    /// Thread of the operation in each copy.
    copy_vc: [DFF<Bits<VB>>; COPIES],
    copy_tid: [DFF<Bits<16>>; COPIES],
    /// The copy's result must be negated (signed operations).
    copy_negate: [DFF<Bit>; COPIES],
    /// Oldest operation's copy, next free copy, operations in the ring.
    head: DFF<Bits<CW>>,
    tail: DFF<Bits<CW>>,
    count: DFF<Bits<NW>>,
    signed_op: Signal<Local, Bit>,
    want_remainder: Signal<Local, Bit>,
    a_negative: Signal<Local, Bit>,
    b_negative: Signal<Local, Bit>,
    a_magnitude: Signal<Local, Bits<32>>,
    b_magnitude: Signal<Local, Bits<32>>,
    negate_result: Signal<Local, Bit>,
    head_done: Signal<Local, Bit>,
    head_quotient: Signal<Local, Bits<32>>,
    head_remainder: Signal<Local, Bits<32>>,
    head_negate: Signal<Local, Bit>,
    head_vc: Signal<Local, Bits<VB>>,
    head_tid: Signal<Local, Bits<16>>,
    magnitude: Signal<Local, Bits<32>>,
    push: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    ids: [Constant<Bits<CW>>; COPIES],
    last_id: Constant<Bits<CW>>,
    id_one: Constant<Bits<CW>>,
    id_zero: Constant<Bits<CW>>,
    full: Constant<Bits<NW>>,
    count_one: Constant<Bits<NW>>,
    count_zero: Constant<Bits<NW>>,
    signed_bit: Constant<Bits<2>>,
    remainder_bit: Constant<Bits<2>>,
    msb: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,
    zero16: Constant<Bits<16>>,
    zero_vc: Constant<Bits<VB>>,
}

impl<
        const VB: usize,
        const COPIES: usize,
        const CW: usize,
        const NW: usize,
        const R: usize,
        const SW: usize,
    > Default for SpecialComputeUnit<VB, COPIES, CW, NW, R, SW>
{
    fn default() -> Self {
        assert!(
            COPIES >= 1,
            "a special compute unit needs at least one copy"
        );
        assert!(
            (1..=16).contains(&VB),
            "VB (virtual channel bits) must be 1..=16, got {VB}"
        );
        assert_eq!(CW, clog2(COPIES).max(1), "CW must be max(1, clog2(COPIES))");
        assert_eq!(NW, clog2(COPIES + 1), "NW must be clog2(COPIES + 1)");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            opcode: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_vc: Default::default(),
            in_tid: Default::default(),
            in_a: Default::default(),
            in_b: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_vc: Default::default(),
            out_tid: Default::default(),
            out_data: Default::default(),
            in_flight: Default::default(),
            copies: array_init::array_init(|_| Default::default()),
            copy_vc: array_init::array_init(|_| Default::default()),
            copy_tid: array_init::array_init(|_| Default::default()),
            copy_negate: array_init::array_init(|_| Default::default()),
            head: Default::default(),
            tail: Default::default(),
            count: Default::default(),
            signed_op: Default::default(),
            want_remainder: Default::default(),
            a_negative: Default::default(),
            b_negative: Default::default(),
            a_magnitude: Default::default(),
            b_magnitude: Default::default(),
            negate_result: Default::default(),
            head_done: Default::default(),
            head_quotient: Default::default(),
            head_remainder: Default::default(),
            head_negate: Default::default(),
            head_vc: Default::default(),
            head_tid: Default::default(),
            magnitude: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            ids: array_init::array_init(|i| Constant::new(Bits::from(i as u64))),
            last_id: Constant::new(Bits::from((COPIES - 1) as u64)),
            id_one: Constant::new(Bits::from(1u64)),
            id_zero: Constant::new(Bits::default()),
            full: Constant::new(Bits::from(COPIES as u64)),
            count_one: Constant::new(Bits::from(1u64)),
            count_zero: Constant::new(Bits::default()),
            signed_bit: Constant::new(Bits::from(1u64)),
            remainder_bit: Constant::new(Bits::from(2u64)),
            msb: Constant::new(Bits::from(1u64 << 31)),
            zero32: Constant::new(Bits::default()),
            zero16: Constant::new(Bits::default()),
            zero_vc: Constant::new(Bits::default()),
        }
    }
}

impl<
        const VB: usize,
        const COPIES: usize,
        const CW: usize,
        const NW: usize,
        const R: usize,
        const SW: usize,
    > Logic for SpecialComputeUnit<VB, COPIES, CW, NW, R, SW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, head, tail, count);
        for i in 0..COPIES {
            self.copies[i].clock.next = self.clock.val();
            self.copies[i].reset.next = self.reset.val();
            self.copy_vc[i].clock.next = self.clock.val();
            self.copy_tid[i].clock.next = self.clock.val();
            self.copy_negate[i].clock.next = self.clock.val();
            self.copy_vc[i].d.next = self.copy_vc[i].q.val();
            self.copy_tid[i].d.next = self.copy_tid[i].q.val();
            self.copy_negate[i].d.next = self.copy_negate[i].q.val();
        }
        // Operands: magnitudes and the sign fix-up the result will need.
        self.signed_op.next = (self.opcode.val() & self.signed_bit.val()).any();
        self.want_remainder.next = (self.opcode.val() & self.remainder_bit.val()).any();
        self.a_negative.next = self.signed_op.val() & (self.in_a.val() & self.msb.val()).any();
        self.b_negative.next = self.signed_op.val() & (self.in_b.val() & self.msb.val()).any();
        self.a_magnitude.next = self.in_a.val();
        if self.a_negative.val() {
            self.a_magnitude.next = self.zero32.val() - self.in_a.val();
        }
        self.b_magnitude.next = self.in_b.val();
        if self.b_negative.val() {
            self.b_magnitude.next = self.zero32.val() - self.in_b.val();
        }
        if self.want_remainder.val() {
            self.negate_result.next = self.a_negative.val();
        } else {
            self.negate_result.next =
                (self.a_negative.val() ^ self.b_negative.val()) & self.in_b.val().any();
        }
        // The ring's head: the oldest operation, which completes first.
        self.head_done.next = false;
        self.head_quotient.next = self.zero32.val();
        self.head_remainder.next = self.zero32.val();
        self.head_negate.next = false;
        self.head_vc.next = self.zero_vc.val();
        self.head_tid.next = self.zero16.val();
        for i in 0..COPIES {
            if self.head.q.val() == self.ids[i].val() {
                self.head_done.next = self.copies[i].done.val();
                self.head_quotient.next = self.copies[i].quotient.val();
                self.head_remainder.next = self.copies[i].remainder.val();
                self.head_negate.next = self.copy_negate[i].q.val();
                self.head_vc.next = self.copy_vc[i].q.val();
                self.head_tid.next = self.copy_tid[i].q.val();
            }
        }
        self.out_valid.next = (self.count.q.val() != self.count_zero.val()) & self.head_done.val();
        self.magnitude.next = self.head_quotient.val();
        if self.want_remainder.val() {
            self.magnitude.next = self.head_remainder.val();
        }
        self.out_vc.next = self.zero_vc.val();
        self.out_tid.next = self.zero16.val();
        self.out_data.next = self.zero32.val();
        if self.out_valid.val() {
            self.out_vc.next = self.head_vc.val();
            self.out_tid.next = self.head_tid.val();
            self.out_data.next = self.magnitude.val();
            if self.head_negate.val() {
                self.out_data.next = self.zero32.val() - self.magnitude.val();
            }
        }
        self.pop.next = self.out_valid.val() & self.out_ready.val();
        self.in_ready.next = (self.count.q.val() != self.full.val()) | self.pop.val();
        self.push.next = self.in_valid.val() & self.in_ready.val();
        self.in_flight.next = self.count.q.val();
        // Load the tail copy.
        for i in 0..COPIES {
            self.copies[i].dividend.next = self.a_magnitude.val();
            self.copies[i].divisor.next = self.b_magnitude.val();
            self.copies[i].start.next = self.push.val() & (self.tail.q.val() == self.ids[i].val());
            if self.copies[i].start.val() {
                self.copy_vc[i].d.next = self.in_vc.val();
                self.copy_tid[i].d.next = self.in_tid.val();
                self.copy_negate[i].d.next = self.negate_result.val();
            }
        }
        if self.push.val() {
            self.tail.d.next = self.tail.q.val() + self.id_one.val();
            if self.tail.q.val() == self.last_id.val() {
                self.tail.d.next = self.id_zero.val();
            }
        }
        if self.pop.val() {
            self.head.d.next = self.head.q.val() + self.id_one.val();
            if self.head.q.val() == self.last_id.val() {
                self.head.d.next = self.id_zero.val();
            }
        }
        if self.push.val() & !self.pop.val() {
            self.count.d.next = self.count.q.val() + self.count_one.val();
        }
        if self.pop.val() & !self.push.val() {
            self.count.d.next = self.count.q.val() - self.count_one.val();
        }
        if self.reset.val() {
            self.head.d.next = self.id_zero.val();
            self.tail.d.next = self.id_zero.val();
            self.count.d.next = self.count_zero.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Scu = SpecialComputeUnit<2, 3, 2, 2, 8, 3>;

    #[test]
    fn synthesizes() {
        let mut uut = Scu::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("special_compute_unit", &vlog).unwrap();
    }

    /// Signed division of -7 by 2 on vc 1: quotient -3 after 32/8 + 1 = 5 cycles.
    #[test]
    fn signed_divide_after_latency() {
        let mut uut = Scu::default();
        uut.connect_all();
        let edge = |uut: &mut Scu| {
            uut.clock.next = Clock::from(true);
            assert!(simulate(uut, 100));
            uut.clock.next = Clock::from(false);
            assert!(simulate(uut, 100));
        };
        uut.reset.next = true;
        assert!(simulate(&mut uut, 100));
        edge(&mut uut);
        uut.reset.next = false;
        uut.opcode.next = 1u64.into();
        uut.in_valid.next = true;
        uut.in_vc.next = 1u64.into();
        uut.in_tid.next = 77u64.into();
        uut.in_a.next = u64::from((-7i32) as u32).into();
        uut.in_b.next = 2u64.into();
        uut.out_ready.next = true;
        assert!(simulate(&mut uut, 100));
        assert!(uut.in_ready.val());
        edge(&mut uut);
        uut.in_valid.next = false;
        let mut cycles = 1;
        assert!(simulate(&mut uut, 100));
        while !uut.out_valid.val() {
            edge(&mut uut);
            cycles += 1;
        }
        assert_eq!(cycles, 5);
        assert_eq!(uut.out_data.val().index() as u32, (-3i32) as u32);
        assert_eq!(uut.out_tid.val().index(), 77);
        assert_eq!(uut.out_vc.val().index(), 1);
    }
}
