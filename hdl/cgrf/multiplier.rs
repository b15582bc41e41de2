//! The compute unit's one multiplier (SPEC §6; VGIW §3.5's merged FP-ALU): a 32 x 32
//! shift-add array giving the full 64-bit unsigned product. It serves `mul` (the low
//! 32 bits) and `fmul` (the 24 x 24 significand product, at most 48 bits).
//!
//! Combinational, no storage: one partial product per bit of `y`, added in order.
//!
//! ```text
//!  x ─> widen to 64 ─┬─ << 0  ─┐
//!                    ├─ << 1  ─┤ (kept when y[i])
//!                    ...       ├──> + ──> product
//!                    └─ << 31 ─┘
//! ```
use crate::lib::widen::Widen;
use rust_hdl::prelude::*;

/// `product = x * y` (unsigned, 64 bits).
#[derive(LogicBlock)]
pub struct Multiplier {
    /// Multiplicand.
    pub x: Signal<In, Bits<32>>,
    /// Multiplier: bit `i` adds `x << i`.
    pub y: Signal<In, Bits<32>>,
    /// The full product.
    pub product: Signal<Out, Bits<64>>,
    /// `x` zero-extended (a sized concatenation, not a bit loop).
    widen: Widen<32, 64>,
    wide_x: Signal<Local, Bits<64>>,
    sum: Signal<Local, Bits<64>>,
    shift: [Constant<Bits<6>>; 32],
    zero64: Constant<Bits<64>>,
}

impl Default for Multiplier {
    fn default() -> Self {
        Self {
            x: Default::default(),
            y: Default::default(),
            product: Default::default(),
            widen: Default::default(),
            wide_x: Default::default(),
            sum: Default::default(),
            shift: array_init::array_init(|i| Constant::new(Bits::<6>::from(i as u64))),
            zero64: Constant::new(Bits::default()),
        }
    }
}

impl Logic for Multiplier {
    #[hdl_gen]
    fn update(&mut self) {
        self.widen.narrow.next = self.x.val();
        self.wide_x.next = self.widen.wide.val();
        self.sum.next = self.zero64.val();
        for i in 0..32 {
            if self.y.val().get_bit(i) {
                self.sum.next = self.sum.val() + (self.wide_x.val() << self.shift[i].val());
            }
        }
        self.product.next = self.sum.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgrf::test_words;

    #[test]
    fn synthesizes() {
        let mut uut = Multiplier::default();
        uut.connect_all();
        yosys_validate("multiplier", &generate_verilog(&uut)).unwrap();
    }

    /// The full 64-bit product of edge words and random words, against `u64`.
    #[test]
    fn equals_the_unsigned_product() {
        let mut uut = Multiplier::default();
        uut.connect_all();
        let words = test_words(0x6d75_6c74, 300);
        for (i, &x) in words.iter().enumerate() {
            for &y in words.iter().skip(i % 7).step_by(7) {
                uut.x.next = u64::from(x).into();
                uut.y.next = u64::from(y).into();
                assert!(simulate(&mut uut, 100));
                let want = u64::from(x) * u64::from(y);
                assert_eq!(uut.product.val(), Bits::<64>::from(want), "{x:#x} * {y:#x}");
            }
        }
    }
}
