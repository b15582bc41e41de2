//! The compute unit's float back end (SPEC §6; VGIW §3.5): normalises the unrounded
//! result of `FloatAlign` (`(-1)^sign x mant x 2^(exp - 190)`), rounds it to nearest
//! even and packs a binary32, with the unit's rules: a subnormal result is flushed to
//! zero of its sign, overflow gives infinity, exact cancellation gives `+0`, the
//! special classes give a signed zero, a signed infinity or the canonical NaN
//! `0x7fc00000`.
//!
//! Combinational, no storage: a 64-bit leading-zero count (the highest set bit wins),
//! a shift, 24 significand bits with a guard bit and a sticky OR of the rest, the
//! increment, the exponent's carry.
//!
//! The exponent is unbounded while rounding (24 bits at any exponent), which equals
//! IEEE rounding above the normal range's floor. In the binade just below it (biased
//! exponent 0) IEEE rounds to the subnormal grid (2^-149) and the unit then flushes,
//! so the only value that survives is one that rounds up to the smallest normal:
//! exactly those whose top 24 significand bits are all ones (at or above the midpoint
//! `2^-126 - 2^-150`), which the pack checks.
use crate::cgrf::constant;
use crate::cgrf::float_align::special;
use rust_hdl::prelude::*;

/// `result` = the binary32 of an unrounded `FloatAlign` result.
#[derive(LogicBlock)]
pub struct FloatRound {
    pub sign: Signal<In, Bit>,
    /// Biased exponent of bit 63 of `mant` (two's complement).
    pub exp: Signal<In, Bits<32>>,
    pub mant: Signal<In, Bits<64>>,
    /// `float_align::special`: a special class overrides `mant`.
    pub special: Signal<In, Bits<2>>,
    pub result: Signal<Out, Bits<32>>,
    found: Signal<Local, Bit>,
    lz6: Signal<Local, Bits<6>>,
    lz32: Signal<Local, Bits<32>>,
    norm: Signal<Local, Bits<64>>,
    upper: Signal<Local, Bits<32>>,
    sig24: Signal<Local, Bits<32>>,
    guard: Signal<Local, Bit>,
    sticky: Signal<Local, Bit>,
    round_up: Signal<Local, Bit>,
    sig25: Signal<Local, Bits<32>>,
    exp_pre: Signal<Local, Bits<32>>,
    exp_fin: Signal<Local, Bits<32>>,
    sign_word: Signal<Local, Bits<32>>,
    word: Signal<Local, Bits<32>>,
    zero6: Constant<Bits<6>>,
    /// `63 - i`: the leading-zero count when bit `i` is the highest set bit.
    lz_of_bit6: [Constant<Bits<6>>; 64],
    lz_of_bit32: [Constant<Bits<32>>; 64],
    sh8: Constant<Bits<5>>,
    sh23: Constant<Bits<5>>,
    zero32: Constant<Bits<32>>,
    one32: Constant<Bits<32>>,
    sign_bit: Constant<Bits<32>>,
    frac_mask: Constant<Bits<32>>,
    exp_mask: Constant<Bits<32>>,
    exp_max: Constant<Bits<32>>,
    guard_bit: Constant<Bits<32>>,
    low7: Constant<Bits<32>>,
    carry_bit: Constant<Bits<32>>,
    sig_all_ones: Constant<Bits<32>>,
    infinity: Constant<Bits<32>>,
    quiet_nan: Constant<Bits<32>>,
    min_normal: Constant<Bits<32>>,
    class_zero: Constant<Bits<2>>,
    class_inf: Constant<Bits<2>>,
    class_nan: Constant<Bits<2>>,
}

impl Default for FloatRound {
    fn default() -> Self {
        Self {
            sign: Default::default(),
            exp: Default::default(),
            mant: Default::default(),
            special: Default::default(),
            result: Default::default(),
            found: Default::default(),
            lz6: Default::default(),
            lz32: Default::default(),
            norm: Default::default(),
            upper: Default::default(),
            sig24: Default::default(),
            guard: Default::default(),
            sticky: Default::default(),
            round_up: Default::default(),
            sig25: Default::default(),
            exp_pre: Default::default(),
            exp_fin: Default::default(),
            sign_word: Default::default(),
            word: Default::default(),
            zero6: Constant::new(Bits::default()),
            lz_of_bit6: array_init::array_init(|i| Constant::new(Bits::<6>::from(63 - i as u64))),
            lz_of_bit32: array_init::array_init(|i| constant(63 - i as u64)),
            sh8: Constant::new(Bits::<5>::from(8u64)),
            sh23: Constant::new(Bits::<5>::from(23u64)),
            zero32: Constant::new(Bits::default()),
            one32: constant(1),
            sign_bit: constant(0x8000_0000),
            frac_mask: constant(0x007f_ffff),
            exp_mask: constant(0xff),
            exp_max: constant(255),
            guard_bit: constant(0x80),
            low7: constant(0x7f),
            carry_bit: constant(0x0100_0000),
            sig_all_ones: constant(0x00ff_ffff),
            infinity: constant(0x7f80_0000),
            quiet_nan: constant(0x7fc0_0000),
            min_normal: constant(0x0080_0000),
            class_zero: constant(special::ZERO),
            class_inf: constant(special::INF),
            class_nan: constant(special::NAN),
        }
    }
}

impl Logic for FloatRound {
    #[hdl_gen]
    fn update(&mut self) {
        // Leading zeros: the highest set bit wins (scanned upwards, last one stays).
        self.found.next = self.mant.val().any();
        self.lz6.next = self.zero6.val();
        self.lz32.next = self.zero32.val();
        for i in 0..64 {
            if self.mant.val().get_bit(i) {
                self.lz6.next = self.lz_of_bit6[i].val();
                self.lz32.next = self.lz_of_bit32[i].val();
            }
        }
        self.norm.next = self.mant.val() << self.lz6.val();
        self.upper.next = self.norm.val().get_bits::<32>(32);
        self.sig24.next = self.upper.val() >> self.sh8.val();
        self.guard.next = (self.upper.val() & self.guard_bit.val()).any();
        self.sticky.next =
            (self.upper.val() & self.low7.val()).any() | self.norm.val().get_bits::<32>(0).any();
        self.round_up.next =
            self.guard.val() & (self.sticky.val() | (self.sig24.val() & self.one32.val()).any());
        self.sig25.next = self.sig24.val();
        if self.round_up.val() {
            self.sig25.next = self.sig24.val() + self.one32.val();
        }
        self.exp_pre.next = self.exp.val() - self.lz32.val();
        self.exp_fin.next = self.exp_pre.val();
        if (self.sig25.val() & self.carry_bit.val()).any() {
            self.exp_fin.next = self.exp_pre.val() + self.one32.val();
        }
        self.sign_word.next = self.zero32.val();
        if self.sign.val() {
            self.sign_word.next = self.sign_bit.val();
        }
        // Underflow (flushed) unless the binade below the normals rounds up to them.
        self.word.next = self.sign_word.val();
        if (self.exp_pre.val() == self.zero32.val()) & (self.sig24.val() == self.sig_all_ones.val())
        {
            self.word.next = self.sign_word.val() | self.min_normal.val();
        }
        if !(self.exp_fin.val() & self.sign_bit.val()).any() & self.exp_fin.val().any() {
            self.word.next = self.sign_word.val()
                | ((self.exp_fin.val() & self.exp_mask.val()) << self.sh23.val())
                | (self.sig25.val() & self.frac_mask.val());
            if self.exp_fin.val() >= self.exp_max.val() {
                self.word.next = self.sign_word.val() | self.infinity.val();
            }
        }
        if !self.found.val() {
            // exact cancellation
            self.word.next = self.zero32.val();
        }
        if self.special.val() == self.class_zero.val() {
            self.word.next = self.sign_word.val();
        }
        if self.special.val() == self.class_inf.val() {
            self.word.next = self.sign_word.val() | self.infinity.val();
        }
        if self.special.val() == self.class_nan.val() {
            self.word.next = self.quiet_nan.val();
        }
        self.result.next = self.word.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgrf::test_words;

    #[test]
    fn synthesizes() {
        let mut uut = FloatRound::default();
        uut.connect_all();
        yosys_validate("float_round", &generate_verilog(&uut)).unwrap();
    }

    fn round(uut: &mut FloatRound, sign: bool, exp: i32, mant: u64, special: u64) -> u32 {
        uut.sign.next = sign;
        uut.exp.next = u64::from(exp as u32).into();
        uut.mant.next = mant.into();
        uut.special.next = special.into();
        assert!(simulate(uut, 100));
        uut.result.val().index() as u32
    }

    /// IEEE binary32 of `(-1)^sign x mant x 2^(exp - 190)` by Rust's f64 -> f32
    /// conversion (round to nearest even), subnormals flushed to zero of their sign;
    /// exact for `mant` of at most 53 significant bits.
    fn reference(sign: bool, exp: i32, mant: u64) -> u32 {
        let v = mant as f64 * 2f64.powi(exp - 190);
        assert_eq!(
            v / 2f64.powi(exp - 190),
            mant as f64,
            "the reference is exact"
        );
        let r = if sign { -(v as f32) } else { v as f32 };
        if r != 0.0 && !r.is_normal() && r.is_finite() {
            r.to_bits() & 0x8000_0000
        } else {
            r.to_bits()
        }
    }

    /// Significands of up to 53 bits anywhere in the 64-bit frame, exponents from deep
    /// underflow through the normal range to overflow, ties and near-ties; the classes.
    #[test]
    fn rounds_to_nearest_even_and_flushes() {
        let mut uut = FloatRound::default();
        uut.connect_all();
        let words = test_words(0x0072_6e64, 600);
        let mut checked = [0usize; 3]; // normal, flushed, infinity
        for (i, pair) in words.windows(2).enumerate() {
            let bits = 1 + (i % 53) as u32;
            let raw = (u64::from(pair[0]) << 32 | u64::from(pair[1])) >> (64 - bits);
            // ties and near-ties: the bits below the 24 kept are 100..0 or 011..1
            let raw = match i % 4 {
                0 if bits > 25 => (raw >> (bits - 25) | 1) << (bits - 25),
                1 if bits > 25 => {
                    ((raw >> (bits - 25) & !1) << (bits - 25)) | ((1 << (bits - 25)) - 1)
                }
                _ => raw,
            } | 1 << (bits - 1);
            let mant = raw << (64 - bits - (pair[0] % (65 - bits)));
            // the leading one's binary exponent spans -160..+140
            let lead = 63 - mant.leading_zeros() as i32;
            let exp = (pair[1] % 300) as i32 - 160 + 127 + 63 - lead;
            let sign = pair[0] & 1 == 1;
            let want = reference(sign, exp, mant);
            let got = round(&mut uut, sign, exp, mant, special::FINITE);
            assert_eq!(got, want, "sign {sign} exp {exp} mant {mant:#x}");
            let kind = match want & 0x7fff_ffff {
                0 => 1,
                0x7f80_0000 => 2,
                _ => 0,
            };
            checked[kind] += 1;
        }
        assert!(
            checked.iter().all(|&n| n > 20),
            "cases per kind: {checked:?}"
        );
        // exact cancellation, and the classes overriding any significand
        assert_eq!(round(&mut uut, true, 150, 0, special::FINITE), 0);
        assert_eq!(round(&mut uut, true, 150, 0xff, special::ZERO), 0x8000_0000);
        assert_eq!(round(&mut uut, false, 150, 0xff, special::INF), 0x7f80_0000);
        assert_eq!(round(&mut uut, true, 150, 0xff, special::INF), 0xff80_0000);
        assert_eq!(round(&mut uut, true, 150, 0xff, special::NAN), 0x7fc0_0000);
        // the binade below the normals: all-ones rounds up to the smallest normal
        // (the midpoint 2^-126 - 2^-150 included), one less is flushed
        for (sign, mant, want) in [
            (false, 0xffff_ff00_0000_0000, 0x0080_0000),
            (true, 0xffff_fe80_0000_0000, 0x8000_0000),
        ] {
            assert_eq!(reference(sign, 0, mant), want);
            assert_eq!(round(&mut uut, sign, 0, mant, special::FINITE), want);
        }
    }
}
