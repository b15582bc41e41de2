//! The compute unit's float front end (SPEC §6; VGIW §3.5): unpacks two binary32
//! operands and produces the exact (sticky-jammed) unrounded result of `fadd` or
//! `fmul` that `FloatRound` rounds in the next stage.
//!
//! Combinational, no storage. The unrounded result is `(-1)^sign x mant x 2^(exp -
//! 190)`: `exp` is the biased exponent of a leading one at bit 63 (two's complement,
//! may run out of the normal range; `FloatRound` normalises), and `special` marks the
//! special results (`special::ZERO`, `INF`, `NAN`; `FINITE` otherwise).
//!
//! - Unpack: subnormal inputs read as zero of their sign; `sig_a`, `sig_b` are the
//!   24-bit significands with the hidden bit (0 for zeros), handed to the shared
//!   `Multiplier` for `fmul`, whose `product` comes back here.
//! - `fadd`: the larger magnitude is x; both significands sit in a 64-bit frame at bits
//!   62..39, y is shifted right by the exponent difference and every bit shifted out
//!   is jammed into bit 0 (sticky), so the sum or difference is exact to the rounding.
//! - `fmul`: the 48-bit product of the significands with `exp = ea + eb - 110` (the
//!   product's bit 46 is worth `2^(ea + eb - 254)`, bit 63 seventeen binades above).
//! - Specials: a zero result of two zeros has sign `sa & sb`, infinities keep their
//!   sign, NaN for any NaN input, `inf - inf` and `inf x 0`.
use crate::cgrf::constant;
use crate::lib::widen::Widen;
use rust_hdl::prelude::*;

/// The `special` values of an unrounded result.
pub mod special {
    pub const FINITE: u64 = 0;
    pub const ZERO: u64 = 1;
    pub const INF: u64 = 2;
    pub const NAN: u64 = 3;
}

/// Unpacked operands and the exact unrounded `a + b` (or `a * b` with `fmul`).
#[derive(LogicBlock)]
pub struct FloatAlign {
    /// Multiply (the product comes from `product`); else add.
    pub fmul: Signal<In, Bit>,
    pub a: Signal<In, Bits<32>>,
    pub b: Signal<In, Bits<32>>,
    /// `sig_a * sig_b` from the shared multiplier (read for `fmul` only).
    pub product: Signal<In, Bits<64>>,
    /// `a`'s significand with the hidden bit (0 for a zero or subnormal).
    pub sig_a: Signal<Out, Bits<32>>,
    pub sig_b: Signal<Out, Bits<32>>,
    // the unrounded result
    pub sign: Signal<Out, Bit>,
    /// Biased exponent of bit 63 of `mant` (two's complement).
    pub exp: Signal<Out, Bits<32>>,
    pub mant: Signal<Out, Bits<64>>,
    /// `special::FINITE`, `ZERO`, `INF` or `NAN`.
    pub special: Signal<Out, Bits<2>>,
    widen_a: Widen<32, 64>,
    widen_b: Widen<32, 64>,
    exp_a: Signal<Local, Bits<32>>,
    exp_b: Signal<Local, Bits<32>>,
    frac_a: Signal<Local, Bits<32>>,
    frac_b: Signal<Local, Bits<32>>,
    sign_a: Signal<Local, Bit>,
    sign_b: Signal<Local, Bit>,
    zero_a: Signal<Local, Bit>,
    zero_b: Signal<Local, Bit>,
    inf_a: Signal<Local, Bit>,
    inf_b: Signal<Local, Bit>,
    nan_a: Signal<Local, Bit>,
    nan_b: Signal<Local, Bit>,
    unpacked_a: Signal<Local, Bits<32>>,
    unpacked_b: Signal<Local, Bits<32>>,
    swap: Signal<Local, Bit>,
    exp_x: Signal<Local, Bits<32>>,
    exp_y: Signal<Local, Bits<32>>,
    sign_x: Signal<Local, Bit>,
    sign_y: Signal<Local, Bit>,
    frame_x: Signal<Local, Bits<64>>,
    frame_y: Signal<Local, Bits<64>>,
    diff: Signal<Local, Bits<32>>,
    diff6: Signal<Local, Bits<6>>,
    aligned: Signal<Local, Bits<64>>,
    sticky_y: Signal<Local, Bit>,
    sum: Signal<Local, Bits<64>>,
    res_sign: Signal<Local, Bit>,
    res_exp: Signal<Local, Bits<32>>,
    res_mant: Signal<Local, Bits<64>>,
    res_special: Signal<Local, Bits<2>>,
    zero32: Constant<Bits<32>>,
    zero64: Constant<Bits<64>>,
    one32: Constant<Bits<32>>,
    one64: Constant<Bits<64>>,
    ones64: Constant<Bits<64>>,
    sign_bit: Constant<Bits<32>>,
    abs_mask: Constant<Bits<32>>,
    frac_mask: Constant<Bits<32>>,
    hidden: Constant<Bits<32>>,
    exp_mask: Constant<Bits<32>>,
    exp_max: Constant<Bits<32>>,
    mul_bias: Constant<Bits<32>>,
    max_shift: Constant<Bits<32>>,
    sh23: Constant<Bits<5>>,
    sh39: Constant<Bits<6>>,
    class_finite: Constant<Bits<2>>,
    class_zero: Constant<Bits<2>>,
    class_inf: Constant<Bits<2>>,
    class_nan: Constant<Bits<2>>,
}

impl Default for FloatAlign {
    fn default() -> Self {
        Self {
            fmul: Default::default(),
            a: Default::default(),
            b: Default::default(),
            product: Default::default(),
            sig_a: Default::default(),
            sig_b: Default::default(),
            sign: Default::default(),
            exp: Default::default(),
            mant: Default::default(),
            special: Default::default(),
            widen_a: Default::default(),
            widen_b: Default::default(),
            exp_a: Default::default(),
            exp_b: Default::default(),
            frac_a: Default::default(),
            frac_b: Default::default(),
            sign_a: Default::default(),
            sign_b: Default::default(),
            zero_a: Default::default(),
            zero_b: Default::default(),
            inf_a: Default::default(),
            inf_b: Default::default(),
            nan_a: Default::default(),
            nan_b: Default::default(),
            unpacked_a: Default::default(),
            unpacked_b: Default::default(),
            swap: Default::default(),
            exp_x: Default::default(),
            exp_y: Default::default(),
            sign_x: Default::default(),
            sign_y: Default::default(),
            frame_x: Default::default(),
            frame_y: Default::default(),
            diff: Default::default(),
            diff6: Default::default(),
            aligned: Default::default(),
            sticky_y: Default::default(),
            sum: Default::default(),
            res_sign: Default::default(),
            res_exp: Default::default(),
            res_mant: Default::default(),
            res_special: Default::default(),
            zero32: Constant::new(Bits::default()),
            zero64: Constant::new(Bits::default()),
            one32: constant(1),
            one64: Constant::new(Bits::<64>::from(1u64)),
            ones64: Constant::new(Bits::<64>::mask()),
            sign_bit: constant(0x8000_0000),
            abs_mask: constant(0x7fff_ffff),
            frac_mask: constant(0x007f_ffff),
            hidden: constant(0x0080_0000),
            exp_mask: constant(0xff),
            exp_max: constant(255),
            // a product's leading one at bit 63 has exponent ea + eb - 127 + 17
            mul_bias: constant(110),
            max_shift: constant(63),
            sh23: Constant::new(Bits::<5>::from(23u64)),
            sh39: Constant::new(Bits::<6>::from(39u64)),
            class_finite: constant(special::FINITE),
            class_zero: constant(special::ZERO),
            class_inf: constant(special::INF),
            class_nan: constant(special::NAN),
        }
    }
}

impl Logic for FloatAlign {
    #[hdl_gen]
    fn update(&mut self) {
        // Unpack; subnormals read as zero.
        self.exp_a.next = (self.a.val() >> self.sh23.val()) & self.exp_mask.val();
        self.exp_b.next = (self.b.val() >> self.sh23.val()) & self.exp_mask.val();
        self.frac_a.next = self.a.val() & self.frac_mask.val();
        self.frac_b.next = self.b.val() & self.frac_mask.val();
        self.sign_a.next = (self.a.val() & self.sign_bit.val()).any();
        self.sign_b.next = (self.b.val() & self.sign_bit.val()).any();
        self.zero_a.next = !self.exp_a.val().any();
        self.zero_b.next = !self.exp_b.val().any();
        self.inf_a.next = (self.exp_a.val() == self.exp_max.val()) & !self.frac_a.val().any();
        self.inf_b.next = (self.exp_b.val() == self.exp_max.val()) & !self.frac_b.val().any();
        self.nan_a.next = (self.exp_a.val() == self.exp_max.val()) & self.frac_a.val().any();
        self.nan_b.next = (self.exp_b.val() == self.exp_max.val()) & self.frac_b.val().any();
        self.unpacked_a.next = self.frac_a.val() | self.hidden.val();
        if self.zero_a.val() {
            self.unpacked_a.next = self.zero32.val();
        }
        self.unpacked_b.next = self.frac_b.val() | self.hidden.val();
        if self.zero_b.val() {
            self.unpacked_b.next = self.zero32.val();
        }
        self.sig_a.next = self.unpacked_a.val();
        self.sig_b.next = self.unpacked_b.val();
        self.widen_a.narrow.next = self.unpacked_a.val();
        self.widen_b.narrow.next = self.unpacked_b.val();

        // Add: the larger magnitude is x; y is aligned to it in a 64-bit frame
        // (significand at bits 62..39), bits shifted out jammed into bit 0.
        self.swap.next =
            (self.b.val() & self.abs_mask.val()) > (self.a.val() & self.abs_mask.val());
        self.exp_x.next = self.exp_a.val();
        self.exp_y.next = self.exp_b.val();
        self.sign_x.next = self.sign_a.val();
        self.sign_y.next = self.sign_b.val();
        self.frame_x.next = self.widen_a.wide.val() << self.sh39.val();
        self.frame_y.next = self.widen_b.wide.val() << self.sh39.val();
        if self.swap.val() {
            self.exp_x.next = self.exp_b.val();
            self.exp_y.next = self.exp_a.val();
            self.sign_x.next = self.sign_b.val();
            self.sign_y.next = self.sign_a.val();
            self.frame_x.next = self.widen_b.wide.val() << self.sh39.val();
            self.frame_y.next = self.widen_a.wide.val() << self.sh39.val();
        }
        self.diff.next = self.exp_x.val() - self.exp_y.val();
        self.diff6.next = self.diff.val().get_bits::<6>(0);
        self.aligned.next = self.frame_y.val() >> self.diff6.val();
        self.sticky_y.next = (self.frame_y.val() & !(self.ones64.val() << self.diff6.val())).any();
        if self.diff.val() > self.max_shift.val() {
            self.aligned.next = self.zero64.val();
            self.sticky_y.next = self.frame_y.val().any();
        }
        if self.sticky_y.val() {
            self.aligned.next = self.aligned.val() | self.one64.val();
        }
        self.sum.next = self.frame_x.val() + self.aligned.val();
        if self.sign_x.val() != self.sign_y.val() {
            self.sum.next = self.frame_x.val() - self.aligned.val();
        }

        self.res_sign.next = self.sign_x.val();
        self.res_exp.next = self.exp_x.val() + self.one32.val();
        self.res_mant.next = self.sum.val();
        self.res_special.next = self.class_finite.val();
        if self.zero_a.val() & self.zero_b.val() {
            self.res_special.next = self.class_zero.val();
            self.res_sign.next = self.sign_a.val() & self.sign_b.val();
        }
        if self.inf_a.val() | self.inf_b.val() {
            self.res_special.next = self.class_inf.val();
            self.res_sign.next = self.sign_b.val();
            if self.inf_a.val() {
                self.res_sign.next = self.sign_a.val();
            }
        }
        if self.nan_a.val()
            | self.nan_b.val()
            | (self.inf_a.val() & self.inf_b.val() & (self.sign_a.val() != self.sign_b.val()))
        {
            self.res_special.next = self.class_nan.val();
        }

        // Multiply: the significands' product from the shared multiplier.
        if self.fmul.val() {
            self.res_sign.next = self.sign_a.val() ^ self.sign_b.val();
            self.res_exp.next = self.exp_a.val() + self.exp_b.val() - self.mul_bias.val();
            self.res_mant.next = self.product.val();
            self.res_special.next = self.class_finite.val();
            if self.zero_a.val() | self.zero_b.val() {
                self.res_special.next = self.class_zero.val();
            }
            if self.inf_a.val() | self.inf_b.val() {
                self.res_special.next = self.class_inf.val();
            }
            if self.nan_a.val()
                | self.nan_b.val()
                | (self.inf_a.val() & self.zero_b.val())
                | (self.zero_a.val() & self.inf_b.val())
            {
                self.res_special.next = self.class_nan.val();
            }
        }
        self.sign.next = self.res_sign.val();
        self.exp.next = self.res_exp.val();
        self.mant.next = self.res_mant.val();
        self.special.next = self.res_special.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgrf::test_words;

    #[test]
    fn synthesizes() {
        let mut uut = FloatAlign::default();
        uut.connect_all();
        yosys_validate("float_align", &generate_verilog(&uut)).unwrap();
    }

    struct Unrounded {
        sign: bool,
        exp: i64,
        mant: u64,
        special: u64,
    }

    fn align(uut: &mut FloatAlign, fmul: bool, a: u32, b: u32) -> Unrounded {
        uut.fmul.next = fmul;
        uut.a.next = u64::from(a).into();
        uut.b.next = u64::from(b).into();
        assert!(simulate(uut, 100));
        let product = uut.sig_a.val().index() as u64 * uut.sig_b.val().index() as u64;
        uut.product.next = product.into();
        assert!(simulate(uut, 100));
        let mant = uut.mant.val();
        Unrounded {
            sign: uut.sign.val(),
            exp: uut.exp.val().index() as u32 as i32 as i64,
            mant: (mant.get_bits::<32>(32).index() as u64) << 32
                | mant.get_bits::<32>(0).index() as u64,
            special: uut.special.val().index() as u64,
        }
    }

    /// A finite non-zero binary32 (subnormals read as zero) as `(sign, sig, e)` with
    /// value `sig x 2^e`.
    fn parts(x: u32) -> Option<(bool, i128, i64)> {
        let e = ((x >> 23) & 0xff) as i64;
        if e == 0 || e == 255 {
            return None;
        }
        Some((
            x >> 31 == 1,
            i128::from((x & 0x7f_ffff) | 0x80_0000),
            e - 150,
        ))
    }

    /// `m1 x 2^e1 - m2 x 2^e2` scaled to the smaller exponent (both fit in i128 here).
    fn difference(m1: i128, e1: i64, m2: i128, e2: i64) -> (i128, i64) {
        let e = e1.min(e2);
        ((m1 << (e1 - e)) - (m2 << (e2 - e)), e)
    }

    /// The unrounded value is the exact sum or product: exactly when the smaller
    /// operand keeps its bits in the 64-bit frame, else within its sticky bit; the
    /// special classes and signs as the header says. Checked against integer
    /// arithmetic on the operands' fields, not against the RTL's steps.
    #[test]
    fn the_unrounded_result_is_exact_up_to_the_sticky_bit() {
        let mut uut = FloatAlign::default();
        uut.connect_all();
        let words = test_words(0x0061_6c6e, 160);
        let (mut exact_adds, mut sticky_adds) = (0, 0);
        for (i, &a) in words.iter().enumerate() {
            for &b in words.iter().skip(i % 5).step_by(5) {
                // nearby exponents for the exact and sticky cases of the adder
                let near =
                    (b & 0x807f_ffff) | (a & 0x7f80_0000).wrapping_add((i as u32 % 40) << 23);
                for b in [b, near] {
                    for fmul in [false, true] {
                        let u = align(&mut uut, fmul, a, b);
                        let ctx = format!("{} {a:#x} {b:#x}", if fmul { "fmul" } else { "fadd" });
                        let (pa, pb) = (parts(a), parts(b));
                        let fa = f32::from_bits(a);
                        let fb = f32::from_bits(b);
                        if fa.is_nan() || fb.is_nan() {
                            assert_eq!(u.special, special::NAN, "{ctx}");
                            continue;
                        }
                        let (za, zb) = (
                            pa.is_none() && !fa.is_infinite(),
                            pb.is_none() && !fb.is_infinite(),
                        );
                        if fmul {
                            if (fa.is_infinite() && zb) || (za && fb.is_infinite()) {
                                assert_eq!(u.special, special::NAN, "{ctx}");
                            } else if fa.is_infinite() || fb.is_infinite() {
                                assert_eq!(u.special, special::INF, "{ctx}");
                            } else if za || zb {
                                assert_eq!(u.special, special::ZERO, "{ctx}");
                            }
                            if fa.is_infinite() || fb.is_infinite() || za || zb {
                                if u.special != special::NAN {
                                    assert_eq!(u.sign, (a ^ b) >> 31 == 1, "{ctx}");
                                }
                                continue;
                            }
                            let ((sa, ma, ea), (sb, mb, eb)) = (pa.unwrap(), pb.unwrap());
                            assert_eq!(u.special, special::FINITE, "{ctx}");
                            assert_eq!(u.sign, sa ^ sb, "{ctx}");
                            let (d, _) =
                                difference(i128::from(u.mant), u.exp - 190, ma * mb, ea + eb);
                            assert_eq!(d, 0, "{ctx}: product");
                            continue;
                        }
                        if fa.is_infinite() && fb.is_infinite() && (a ^ b) >> 31 == 1 {
                            assert_eq!(u.special, special::NAN, "{ctx}");
                            continue;
                        }
                        if fa.is_infinite() || fb.is_infinite() {
                            assert_eq!(u.special, special::INF, "{ctx}");
                            let inf = if fa.is_infinite() { a } else { b };
                            assert_eq!(u.sign, inf >> 31 == 1, "{ctx}");
                            continue;
                        }
                        if za && zb {
                            assert_eq!(u.special, special::ZERO, "{ctx}");
                            assert_eq!(u.sign, (a & b) >> 31 == 1, "{ctx}");
                            continue;
                        }
                        assert_eq!(u.special, special::FINITE, "{ctx}");
                        // the exact sum of the operands (a zero operand contributes 0
                        // at the other's exponent)
                        let term =
                            |p: Option<(bool, i128, i64)>, other: Option<(bool, i128, i64)>| {
                                p.map_or((0, other.map_or(0, |o| o.2)), |(s, m, e)| {
                                    (if s { -m } else { m }, e)
                                })
                            };
                        let ((ma, ea), (mb, eb)) = (term(pa, pb), term(pb, pa));
                        let (lo, hi) = if ea < eb {
                            ((ma, ea), (mb, eb))
                        } else {
                            ((mb, eb), (ma, ea))
                        };
                        let value = if u.sign {
                            -i128::from(u.mant)
                        } else {
                            i128::from(u.mant)
                        };
                        if hi.1 - lo.1 > 63 {
                            // every bit of the smaller operand is shifted out: the larger
                            // one plus or minus one unit of bit 0 (the sticky bit)
                            let (d, de) = difference(value, u.exp - 190, hi.0, hi.1);
                            assert_eq!(de, u.exp - 190, "{ctx}: bit 0 below the larger operand");
                            assert_eq!(d, lo.0.signum(), "{ctx}: the sticky bit");
                            continue;
                        }
                        let (sum, e) = difference(ma, ea, -mb, eb);
                        let (d, de) = difference(value, u.exp - 190, sum, e);
                        if hi.1 - lo.1 <= 39 {
                            assert_eq!(d, 0, "{ctx}: exact sum");
                            exact_adds += 1;
                        } else {
                            // within one unit of bit 0, and bit 0 set when inexact
                            assert!(
                                d.abs() < 1i128 << (u.exp - 190 - de),
                                "{ctx}: within the sticky bit"
                            );
                            if d != 0 {
                                assert_eq!(u.mant & 1, 1, "{ctx}: sticky");
                                sticky_adds += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(
            exact_adds > 1000 && sticky_adds > 20,
            "only {exact_adds} exact and {sticky_adds} inexact additions checked"
        );
    }
}
