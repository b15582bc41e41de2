//! The SIMT core's shared multiply/divide unit (RV32M), serving one lane at a time:
//! the core steps a warp's active lanes through it in lane order.
//!
//! Built from two iterative units retiring 4 bits per cycle: the `ShiftAddMultiplier`
//! (unsigned, 64-bit product; a combinational 32 x 32 array, the fabric's
//! `Multiplier`, alone took more logic cells than the rest of the 2 x 2 core beside its
//! stacks) and the fabric's `DividerCopy` (unsigned restoring divider). Signed forms run
//! on magnitudes and fix the sign after:
//!
//! ```text
//!  start: op, sign flags latched; |a|, |b| (for the signed operands) go to the unit
//!  mul*:  8 cycles; product = |a| * |b|, negated when the signs differ; low or high word
//!  div*:  8 cycles; quotient negated when the signs differ and b != 0 (b = 0 gives
//!         all ones, RISC-V's -1); remainder takes the dividend's sign (b = 0 gives a)
//! ```
//! `-2^31 / -1` needs no case: |a| = 2^31, the quotient 2^31 is not negated, so the
//! result is `-2^31` and the remainder 0, as RISC-V defines.
//!
//! Latency: `done` nine cycles after `start`, for a multiply as for a divide; `result`
//! is valid while `done`, and `busy` falls on the edge after `done`.
//! Storage: 3 + 3 + 1 flip-flops, the multiplier's 2 x 33 + 32 + 4 and the divider's
//! 3 x 32 + 4.
use crate::cgrf::divider_copy::DividerCopy;
use crate::simt::shift_add_multiplier::ShiftAddMultiplier;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct MulDiv {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: idle.
    pub reset: Signal<In, Bit>,
    /// Take `op`, `a` and `b` on this edge.
    pub start: Signal<In, Bit>,
    /// RV32M `funct3`: 0 mul, 1 mulh, 2 mulhsu, 3 mulhu, 4 div, 5 divu, 6 rem, 7 remu.
    pub op: Signal<In, Bits<3>>,
    pub a: Signal<In, Bits<32>>,
    pub b: Signal<In, Bits<32>>,
    /// `result` holds the operation's value this cycle.
    pub done: Signal<Out, Bit>,
    pub result: Signal<Out, Bits<32>>,
    multiplier: ShiftAddMultiplier<4, 4>,
    divider: DividerCopy<4, 4>,
    busy: DFF<Bit>,
    op_q: DFF<Bits<3>>,
    a_neg: DFF<Bit>,
    b_neg: DFF<Bit>,
    b_zero: DFF<Bit>,
    /// The signs of this cycle's inputs, and their magnitudes.
    in_a_neg: Signal<Local, Bit>,
    in_b_neg: Signal<Local, Bit>,
    abs_a: Signal<Local, Bits<32>>,
    abs_b: Signal<Local, Bits<32>>,
    /// The signed product's words.
    low: Signal<Local, Bits<32>>,
    high: Signal<Local, Bits<32>>,
    quotient: Signal<Local, Bits<32>>,
    remainder: Signal<Local, Bits<32>>,
    is_div: Signal<Local, Bit>,
    f: [Constant<Bits<3>>; 8],
    one32: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,
}

impl Default for MulDiv {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            op: Default::default(),
            a: Default::default(),
            b: Default::default(),
            done: Default::default(),
            result: Default::default(),
            multiplier: Default::default(),
            divider: Default::default(),
            busy: Default::default(),
            op_q: Default::default(),
            a_neg: Default::default(),
            b_neg: Default::default(),
            b_zero: Default::default(),
            in_a_neg: Default::default(),
            in_b_neg: Default::default(),
            abs_a: Default::default(),
            abs_b: Default::default(),
            low: Default::default(),
            high: Default::default(),
            quotient: Default::default(),
            remainder: Default::default(),
            is_div: Default::default(),
            f: array_init::array_init(|i| Constant::new(Bits::<3>::from(i as u64))),
            one32: Constant::new(Bits::<32>::from(1u64)),
            zero32: Constant::new(Bits::<32>::from(0u64)),
        }
    }
}

impl Logic for MulDiv {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy, op_q, a_neg, b_neg, b_zero);
        self.divider.clock.next = self.clock.val();
        self.divider.reset.next = self.reset.val();
        self.multiplier.clock.next = self.clock.val();
        self.multiplier.reset.next = self.reset.val();
        // Signed operands: a for mulh, mulhsu, div, rem; b for mulh, div, rem.
        self.in_a_neg.next = self.a.val().get_bit(31)
            & ((self.op.val() == self.f[1].val())
                | (self.op.val() == self.f[2].val())
                | (self.op.val() == self.f[4].val())
                | (self.op.val() == self.f[6].val()));
        self.in_b_neg.next = self.b.val().get_bit(31)
            & ((self.op.val() == self.f[1].val())
                | (self.op.val() == self.f[4].val())
                | (self.op.val() == self.f[6].val()));
        self.abs_a.next = self.a.val();
        if self.in_a_neg.val() {
            self.abs_a.next = !self.a.val() + self.one32.val();
        }
        self.abs_b.next = self.b.val();
        if self.in_b_neg.val() {
            self.abs_b.next = !self.b.val() + self.one32.val();
        }
        self.divider.start.next = self.start.val() & self.op.val().get_bit(2);
        self.divider.dividend.next = self.abs_a.val();
        self.divider.divisor.next = self.abs_b.val();
        self.multiplier.start.next = self.start.val() & !self.op.val().get_bit(2);
        self.multiplier.x.next = self.abs_a.val();
        self.multiplier.y.next = self.abs_b.val();
        if self.start.val() {
            self.busy.d.next = true;
            self.op_q.d.next = self.op.val();
            self.a_neg.d.next = self.in_a_neg.val();
            self.b_neg.d.next = self.in_b_neg.val();
            self.b_zero.d.next = self.b.val() == self.zero32.val();
        }
        // The 64-bit negation word by word: the low word's +1 carries into the high
        // word only when the low word is 0.
        self.low.next = self.multiplier.low.val();
        self.high.next = self.multiplier.high.val();
        if self.a_neg.q.val() ^ self.b_neg.q.val() {
            self.low.next = !self.multiplier.low.val() + self.one32.val();
            self.high.next = !self.multiplier.high.val();
            if self.multiplier.low.val() == self.zero32.val() {
                self.high.next = !self.multiplier.high.val() + self.one32.val();
            }
        }
        self.quotient.next = self.divider.quotient.val();
        if (self.a_neg.q.val() ^ self.b_neg.q.val()) & !self.b_zero.q.val() {
            self.quotient.next = !self.divider.quotient.val() + self.one32.val();
        }
        self.remainder.next = self.divider.remainder.val();
        if self.a_neg.q.val() {
            self.remainder.next = !self.divider.remainder.val() + self.one32.val();
        }
        self.is_div.next = self.op_q.q.val().get_bit(2);
        self.result.next = self.low.val();
        if (self.op_q.q.val() == self.f[1].val())
            | (self.op_q.q.val() == self.f[2].val())
            | (self.op_q.q.val() == self.f[3].val())
        {
            self.result.next = self.high.val();
        }
        if self.is_div.val() {
            self.result.next = self.quotient.val();
            if self.op_q.q.val().get_bit(1) {
                self.result.next = self.remainder.val();
            }
        }
        self.done.next = self.busy.q.val()
            & ((!self.is_div.val() & self.multiplier.done.val())
                | (self.is_div.val() & self.divider.done.val()));
        if self.done.val() & !self.start.val() {
            self.busy.d.next = false;
        }
        if self.reset.val() {
            self.busy.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(op: u64, a: u32, b: u32) -> u32 {
        let mut uut = MulDiv::default();
        uut.connect_all();
        let edge = |uut: &mut MulDiv| {
            uut.clock.next = true.into();
            assert!(simulate(uut, 200));
            uut.clock.next = false.into();
            uut.start.next = false;
            uut.reset.next = false;
            assert!(simulate(uut, 200));
        };
        uut.reset.next = true;
        edge(&mut uut);
        uut.start.next = true;
        uut.op.next = op.into();
        uut.a.next = (a as u64).into();
        uut.b.next = (b as u64).into();
        // Settle the inputs before the edge, as the core's registered `start` is.
        assert!(simulate(&mut uut, 200));
        edge(&mut uut);
        for _ in 0..20 {
            if uut.done.val() {
                return uut.result.val().index() as u32;
            }
            edge(&mut uut);
        }
        panic!("no result");
    }

    #[test]
    fn synthesizes() {
        let mut uut = MulDiv::default();
        uut.connect_all();
        yosys_validate("simt_mul_div", &generate_verilog(&uut)).unwrap();
    }

    #[test]
    fn rv32m_corner_cases() {
        let cases: [(u64, u32, u32, u32); 12] = [
            (0, 7, 6, 42),
            (0, -3i32 as u32, 5, -15i32 as u32),
            (1, -3i32 as u32, 5, 0xffff_ffff),
            (2, -1i32 as u32, 0xffff_ffff, 0xffff_ffff),
            (3, 0xffff_ffff, 0xffff_ffff, 0xffff_fffe),
            (4, -7i32 as u32, 2, -3i32 as u32),
            (4, 5, 0, 0xffff_ffff),
            (4, 0x8000_0000, 0xffff_ffff, 0x8000_0000),
            (5, 7, 0, 0xffff_ffff),
            (6, -7i32 as u32, 2, -1i32 as u32),
            (6, -7i32 as u32, 0, -7i32 as u32),
            (7, 7, 3, 1),
        ];
        for (op, a, b, want) in cases {
            assert_eq!(run(op, a, b), want, "op {op} a {a:#x} b {b:#x}");
        }
    }
}
