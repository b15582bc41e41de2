//! One copy of the special compute unit's non-pipelined divider
//! (`vgiw-control-flow-coalescing.txt` §3.5 "Special compute units": "multiple
//! instances of the circuits that implement the non-pipelined operations"; SPEC §6).
//! An unsigned 32-bit restoring divider retiring `R` quotient bits per cycle; the
//! special compute unit takes absolute values before and fixes signs after.
//!
//! ```text
//!  start: rem = 0, quo = dividend, div = divisor, steps = 32 / R
//!  each cycle while steps != 0, R times:
//!    shifted = rem << 1 | msb(quo)            (33 bits: carry = msb(rem))
//!    if carry | shifted >= div: rem = shifted - div, quo = quo << 1 | 1
//!    else:                      rem = shifted,       quo = quo << 1
//!  done = (steps == 0): quotient = quo, remainder = rem
//! ```
//!
//! Latency: `32 / R` cycles after the `start` edge (`done` rises after the last step
//! edge). Not pipelined: a new `start` restarts the copy. Divisor 0 needs no special
//! case: every step subtracts 0, so the quotient is all ones and the remainder is the
//! dividend (RISC-V's unsigned definition).
//!
//! Storage: `3 x 32 + SW` flip-flops. Only `steps` is reset (the data registers are
//! only read once a division has run; the unit gates its outputs with `valid`).
use rust_hdl::prelude::*;

/// A restoring divider copy retiring `R` bits per cycle; `SW = clog2(32 / R + 1)`.
#[derive(LogicBlock)]
pub struct DividerCopy<const R: usize, const SW: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: the copy becomes idle (`done`).
    pub reset: Signal<In, Bit>,
    /// Load the operands on this edge (overrides a division in progress).
    pub start: Signal<In, Bit>,
    /// Unsigned dividend, read on a `start` edge.
    pub dividend: Signal<In, Bits<32>>,
    /// Unsigned divisor, read on a `start` edge.
    pub divisor: Signal<In, Bits<32>>,
    /// No step left: `quotient` and `remainder` hold the last division's result.
    pub done: Signal<Out, Bit>,
    pub quotient: Signal<Out, Bits<32>>,
    pub remainder: Signal<Out, Bits<32>>,
    rem: DFF<Bits<32>>,
    quo: DFF<Bits<32>>,
    div: DFF<Bits<32>>,
    /// Step cycles left (0: idle or done).
    steps: DFF<Bits<SW>>,
    /// Partial remainder and quotient through the `R` unrolled steps.
    r: Signal<Local, Bits<32>>,
    q: Signal<Local, Bits<32>>,
    shifted: Signal<Local, Bits<32>>,
    carry: Signal<Local, Bit>,
    one: Constant<Bits<32>>,
    msb: Constant<Bits<32>>,
    zero: Constant<Bits<32>>,
    total_steps: Constant<Bits<SW>>,
    step_one: Constant<Bits<SW>>,
    step_zero: Constant<Bits<SW>>,
}

impl<const R: usize, const SW: usize> Default for DividerCopy<R, SW> {
    fn default() -> Self {
        assert!(
            (1..=32).contains(&R) && 32 % R == 0,
            "R (bits per cycle) must divide 32, got {R}"
        );
        assert_eq!(SW, clog2(32 / R + 1), "SW must be clog2(32 / R + 1)");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            dividend: Default::default(),
            divisor: Default::default(),
            done: Default::default(),
            quotient: Default::default(),
            remainder: Default::default(),
            rem: Default::default(),
            quo: Default::default(),
            div: Default::default(),
            steps: Default::default(),
            r: Default::default(),
            q: Default::default(),
            shifted: Default::default(),
            carry: Default::default(),
            one: Constant::new(Bits::from(1u64)),
            msb: Constant::new(Bits::from(1u64 << 31)),
            zero: Constant::new(Bits::default()),
            total_steps: Constant::new(Bits::from((32 / R) as u64)),
            step_one: Constant::new(Bits::from(1u64)),
            step_zero: Constant::new(Bits::default()),
        }
    }
}

impl<const R: usize, const SW: usize> Logic for DividerCopy<R, SW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, rem, quo, div, steps);
        self.done.next = self.steps.q.val() == self.step_zero.val();
        self.quotient.next = self.quo.q.val();
        self.remainder.next = self.rem.q.val();
        // R restoring steps, unrolled (blocking reassignment of the partials).
        self.r.next = self.rem.q.val();
        self.q.next = self.quo.q.val();
        self.shifted.next = self.zero.val();
        self.carry.next = false;
        for _s in 0..R {
            self.carry.next = (self.r.val() & self.msb.val()).any();
            self.shifted.next = self.r.val() << self.one.val();
            if (self.q.val() & self.msb.val()).any() {
                self.shifted.next = self.shifted.val() | self.one.val();
            }
            self.q.next = self.q.val() << self.one.val();
            if self.carry.val() | (self.shifted.val() >= self.div.q.val()) {
                self.r.next = self.shifted.val() - self.div.q.val();
                self.q.next = self.q.val() | self.one.val();
            } else {
                self.r.next = self.shifted.val();
            }
        }
        if !self.done.val() {
            self.rem.d.next = self.r.val();
            self.quo.d.next = self.q.val();
            self.steps.d.next = self.steps.q.val() - self.step_one.val();
        }
        if self.start.val() {
            self.rem.d.next = self.zero.val();
            self.quo.d.next = self.dividend.val();
            self.div.d.next = self.divisor.val();
            self.steps.d.next = self.total_steps.val();
        }
        if self.reset.val() {
            self.steps.d.next = self.step_zero.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = DividerCopy::<4, 4>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("divider_copy", &vlog).unwrap();
    }

    fn divide<const R: usize, const SW: usize>(a: u32, b: u32) -> (u32, u32, usize) {
        let mut uut = DividerCopy::<R, SW>::default();
        uut.connect_all();
        let edge = |uut: &mut DividerCopy<R, SW>| {
            uut.clock.next = Clock::from(true);
            assert!(simulate(uut, 100));
            uut.clock.next = Clock::from(false);
            assert!(simulate(uut, 100));
        };
        uut.start.next = true;
        uut.dividend.next = u64::from(a).into();
        uut.divisor.next = u64::from(b).into();
        assert!(simulate(&mut uut, 100));
        edge(&mut uut);
        uut.start.next = false;
        let mut cycles = 0;
        while !uut.done.val() {
            edge(&mut uut);
            cycles += 1;
        }
        (
            uut.quotient.val().index() as u32,
            uut.remainder.val().index() as u32,
            cycles,
        )
    }

    #[test]
    fn divides_in_32_over_r_steps() {
        for (a, b) in [
            (100u32, 7u32),
            (u32::MAX, 1),
            (u32::MAX, u32::MAX),
            (5, 0),
            (0, 3),
            (1 << 31, 3),
        ] {
            let want = (
                a.checked_div(b).unwrap_or(u32::MAX),
                a.checked_rem(b).unwrap_or(a),
            );
            let (q, r, c) = divide::<4, 4>(a, b);
            assert_eq!((q, r), want, "{a} / {b}, 4 bits per cycle");
            assert_eq!(c, 8);
            let (q, r, c) = divide::<1, 6>(a, b);
            assert_eq!((q, r), want, "{a} / {b}, 1 bit per cycle");
            assert_eq!(c, 32);
        }
    }
}
