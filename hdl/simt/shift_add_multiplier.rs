//! The SIMT core's multiplier: an unsigned 32 x 32 shift-add multiplier retiring `R`
//! bits of `y` per cycle, the sequential counterpart of the fabric's combinational
//! `Multiplier` (whose 32 adders take over half an iCE40HX8K's logic cells), with the
//! interface and timing of the divider beside it (`cgrf/divider_copy.rs`).
//!
//! ```text
//!  start: hi = 0, lo = y, xq = x, steps = 32 / R
//!  each cycle while steps != 0, R times:
//!    sum = hi + (lo[0] ? xq : 0)        (33 bits: hi and xq are below 2^32)
//!    lo  = lo >> 1 | sum[0] << 31       (the product's next low bit enters lo)
//!    hi  = sum >> 1
//!  done = (steps == 0): {high, low} = {hi, lo} = x * y
//! ```
//!
//! Latency: `32 / R` cycles after the `start` edge (`done` rises after the last step
//! edge). Not pipelined: a new `start` restarts it. Storage: `33 + 33 + 32 + SW`
//! flip-flops (the top bit of `hi` is always 0). Only `steps` is reset.
use crate::lib::widen::Widen;
use rust_hdl::prelude::*;

/// `{high, low} = x * y` (unsigned) in `32 / R` cycles; `SW = clog2(32 / R + 1)`.
#[derive(LogicBlock)]
pub struct ShiftAddMultiplier<const R: usize, const SW: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: idle (`done`).
    pub reset: Signal<In, Bit>,
    /// Load the operands on this edge (overrides a multiplication in progress).
    pub start: Signal<In, Bit>,
    /// Multiplicand, read on a `start` edge.
    pub x: Signal<In, Bits<32>>,
    /// Multiplier, read on a `start` edge.
    pub y: Signal<In, Bits<32>>,
    /// No step left: `high` and `low` hold the last product.
    pub done: Signal<Out, Bit>,
    pub low: Signal<Out, Bits<32>>,
    pub high: Signal<Out, Bits<32>>,
    /// `x` zero-extended to the sum's 33 bits.
    widen: Widen<32, 33>,
    xq: DFF<Bits<33>>,
    hi: DFF<Bits<33>>,
    lo: DFF<Bits<32>>,
    /// Step cycles left (0: idle or done).
    steps: DFF<Bits<SW>>,
    /// The partials through the `R` unrolled steps.
    h: Signal<Local, Bits<33>>,
    l: Signal<Local, Bits<32>>,
    sum: Signal<Local, Bits<33>>,
    one33: Constant<Bits<33>>,
    one32: Constant<Bits<32>>,
    msb32: Constant<Bits<32>>,
    zero33: Constant<Bits<33>>,
    total_steps: Constant<Bits<SW>>,
    step_one: Constant<Bits<SW>>,
    step_zero: Constant<Bits<SW>>,
}

impl<const R: usize, const SW: usize> Default for ShiftAddMultiplier<R, SW> {
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
            x: Default::default(),
            y: Default::default(),
            done: Default::default(),
            low: Default::default(),
            high: Default::default(),
            widen: Default::default(),
            xq: Default::default(),
            hi: Default::default(),
            lo: Default::default(),
            steps: Default::default(),
            h: Default::default(),
            l: Default::default(),
            sum: Default::default(),
            one33: Constant::new(Bits::from(1u64)),
            one32: Constant::new(Bits::from(1u64)),
            msb32: Constant::new(Bits::from(1u64 << 31)),
            zero33: Constant::new(Bits::default()),
            total_steps: Constant::new(Bits::from((32 / R) as u64)),
            step_one: Constant::new(Bits::from(1u64)),
            step_zero: Constant::new(Bits::default()),
        }
    }
}

impl<const R: usize, const SW: usize> Logic for ShiftAddMultiplier<R, SW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, xq, hi, lo, steps);
        self.widen.narrow.next = self.x.val();
        self.done.next = self.steps.q.val() == self.step_zero.val();
        self.low.next = self.lo.q.val();
        self.high.next = self.hi.q.val().get_bits::<32>(0);
        // R shift-add steps, unrolled (blocking reassignment of the partials).
        self.h.next = self.hi.q.val();
        self.l.next = self.lo.q.val();
        self.sum.next = self.zero33.val();
        for _s in 0..R {
            self.sum.next = self.h.val();
            if self.l.val().get_bit(0) {
                self.sum.next = self.h.val() + self.xq.q.val();
            }
            self.l.next = self.l.val() >> self.one32.val();
            if self.sum.val().get_bit(0) {
                self.l.next = self.l.val() | self.msb32.val();
            }
            self.h.next = self.sum.val() >> self.one33.val();
        }
        if !self.done.val() {
            self.hi.d.next = self.h.val();
            self.lo.d.next = self.l.val();
            self.steps.d.next = self.steps.q.val() - self.step_one.val();
        }
        if self.start.val() {
            self.hi.d.next = self.zero33.val();
            self.lo.d.next = self.y.val();
            self.xq.d.next = self.widen.wide.val();
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
    use crate::cgrf::test_words;

    #[test]
    fn synthesizes() {
        let mut uut = ShiftAddMultiplier::<4, 4>::default();
        uut.connect_all();
        yosys_validate("shift_add_multiplier", &generate_verilog(&uut)).unwrap();
    }

    /// The product and the cycles it took after the `start` edge.
    fn multiply<const R: usize, const SW: usize>(x: u32, y: u32) -> (u64, usize) {
        let mut uut = ShiftAddMultiplier::<R, SW>::default();
        uut.connect_all();
        let edge = |uut: &mut ShiftAddMultiplier<R, SW>| {
            uut.clock.next = Clock::from(true);
            assert!(simulate(uut, 100));
            uut.clock.next = Clock::from(false);
            assert!(simulate(uut, 100));
        };
        uut.start.next = true;
        uut.x.next = u64::from(x).into();
        uut.y.next = u64::from(y).into();
        assert!(simulate(&mut uut, 100));
        edge(&mut uut);
        uut.start.next = false;
        let mut cycles = 0;
        while !uut.done.val() {
            edge(&mut uut);
            cycles += 1;
        }
        let high = uut.high.val().index() as u64;
        let low = uut.low.val().index() as u64;
        (high << 32 | low, cycles)
    }

    /// The full 64-bit product of edge words and random words, against `u64`.
    #[test]
    fn equals_the_unsigned_product_in_32_over_r_cycles() {
        let words = test_words(0x7361_6d75, 40);
        for (i, &x) in words.iter().enumerate() {
            for &y in words.iter().skip(i % 5).step_by(5) {
                let want = u64::from(x) * u64::from(y);
                assert_eq!(multiply::<4, 4>(x, y), (want, 8), "{x:#x} * {y:#x}, R = 4");
            }
        }
        for (x, y) in [(u32::MAX, u32::MAX), (3, 5), (1 << 31, 2)] {
            let want = u64::from(x) * u64::from(y);
            assert_eq!(multiply::<1, 6>(x, y), (want, 32), "{x:#x} * {y:#x}, R = 1");
        }
    }
}
