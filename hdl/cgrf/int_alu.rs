//! The compute unit's integer ALU (SPEC §6; VGIW §3.5): every integer opcode of
//! `compute_unit::opcode` on one entry's operands. `mul` takes the low 32 bits of the
//! shared `Multiplier`'s product (the unit feeds it `a` and `b` for integer opcodes),
//! so this block holds no multiplier of its own.
//!
//! Combinational, no storage. Shifts use `b mod 32`; compares give 0 or 1; `select`
//! gives `a != 0 ? b : c`; the float opcodes (and any other) give 0 here.
use crate::cgrf::compute_unit::opcode;
use crate::cgrf::constant;
use rust_hdl::prelude::*;

/// `result = op(a, b, c)` for the integer opcodes.
#[derive(LogicBlock)]
pub struct IntAlu {
    /// The entry's opcode (`compute_unit::opcode`).
    pub op: Signal<In, Bits<4>>,
    pub a: Signal<In, Bits<32>>,
    pub b: Signal<In, Bits<32>>,
    /// `select`'s third operand.
    pub c: Signal<In, Bits<32>>,
    /// The low 32 bits of `a * b` from the shared multiplier.
    pub product: Signal<In, Bits<32>>,
    pub result: Signal<Out, Bits<32>>,
    shamt: Signal<Local, Bits<5>>,
    res: Signal<Local, Bits<32>>,
    op_add: Constant<Bits<4>>,
    op_sub: Constant<Bits<4>>,
    op_mul: Constant<Bits<4>>,
    op_and: Constant<Bits<4>>,
    op_or: Constant<Bits<4>>,
    op_xor: Constant<Bits<4>>,
    op_shl: Constant<Bits<4>>,
    op_shr: Constant<Bits<4>>,
    op_sra: Constant<Bits<4>>,
    op_eq: Constant<Bits<4>>,
    op_ne: Constant<Bits<4>>,
    op_lt: Constant<Bits<4>>,
    op_ltu: Constant<Bits<4>>,
    op_select: Constant<Bits<4>>,
    zero32: Constant<Bits<32>>,
    one32: Constant<Bits<32>>,
    ones32: Constant<Bits<32>>,
    sign_bit: Constant<Bits<32>>,
}

impl Default for IntAlu {
    fn default() -> Self {
        Self {
            op: Default::default(),
            a: Default::default(),
            b: Default::default(),
            c: Default::default(),
            product: Default::default(),
            result: Default::default(),
            shamt: Default::default(),
            res: Default::default(),
            op_add: constant(opcode::ADD as u64),
            op_sub: constant(opcode::SUB as u64),
            op_mul: constant(opcode::MUL as u64),
            op_and: constant(opcode::AND as u64),
            op_or: constant(opcode::OR as u64),
            op_xor: constant(opcode::XOR as u64),
            op_shl: constant(opcode::SHL as u64),
            op_shr: constant(opcode::SHR as u64),
            op_sra: constant(opcode::SRA as u64),
            op_eq: constant(opcode::EQ as u64),
            op_ne: constant(opcode::NE as u64),
            op_lt: constant(opcode::LT as u64),
            op_ltu: constant(opcode::LTU as u64),
            op_select: constant(opcode::SELECT as u64),
            zero32: Constant::new(Bits::default()),
            one32: constant(1),
            ones32: Constant::new(Bits::<32>::mask()),
            sign_bit: constant(0x8000_0000),
        }
    }
}

impl Logic for IntAlu {
    #[hdl_gen]
    fn update(&mut self) {
        self.shamt.next = self.b.val().get_bits::<5>(0);
        self.res.next = self.zero32.val();
        if self.op.val() == self.op_add.val() {
            self.res.next = self.a.val() + self.b.val();
        }
        if self.op.val() == self.op_sub.val() {
            self.res.next = self.a.val() - self.b.val();
        }
        if self.op.val() == self.op_mul.val() {
            self.res.next = self.product.val();
        }
        if self.op.val() == self.op_and.val() {
            self.res.next = self.a.val() & self.b.val();
        }
        if self.op.val() == self.op_or.val() {
            self.res.next = self.a.val() | self.b.val();
        }
        if self.op.val() == self.op_xor.val() {
            self.res.next = self.a.val() ^ self.b.val();
        }
        if self.op.val() == self.op_shl.val() {
            self.res.next = self.a.val() << self.shamt.val();
        }
        if self.op.val() == self.op_shr.val() {
            self.res.next = self.a.val() >> self.shamt.val();
        }
        if self.op.val() == self.op_sra.val() {
            self.res.next = self.a.val() >> self.shamt.val();
            if (self.a.val() & self.sign_bit.val()).any() {
                self.res.next =
                    (self.a.val() >> self.shamt.val()) | !(self.ones32.val() >> self.shamt.val());
            }
        }
        if (self.op.val() == self.op_eq.val()) & (self.a.val() == self.b.val()) {
            self.res.next = self.one32.val();
        }
        if (self.op.val() == self.op_ne.val()) & (self.a.val() != self.b.val()) {
            self.res.next = self.one32.val();
        }
        if (self.op.val() == self.op_lt.val())
            & ((self.a.val() ^ self.sign_bit.val()) < (self.b.val() ^ self.sign_bit.val()))
        {
            self.res.next = self.one32.val();
        }
        if (self.op.val() == self.op_ltu.val()) & (self.a.val() < self.b.val()) {
            self.res.next = self.one32.val();
        }
        if self.op.val() == self.op_select.val() {
            self.res.next = self.c.val();
            if self.a.val().any() {
                self.res.next = self.b.val();
            }
        }
        self.result.next = self.res.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgrf::test_words;

    #[test]
    fn synthesizes() {
        let mut uut = IntAlu::default();
        uut.connect_all();
        yosys_validate("int_alu", &generate_verilog(&uut)).unwrap();
    }

    /// What each opcode computes, written from the opcode table (not from the RTL).
    fn reference(code: usize, a: u32, b: u32, c: u32) -> u32 {
        match code {
            opcode::ADD => a.wrapping_add(b),
            opcode::SUB => a.wrapping_sub(b),
            opcode::MUL => a.wrapping_mul(b),
            opcode::AND => a & b,
            opcode::OR => a | b,
            opcode::XOR => a ^ b,
            opcode::SHL => a << (b % 32),
            opcode::SHR => a >> (b % 32),
            opcode::SRA => ((a as i32) >> (b % 32)) as u32,
            opcode::EQ => u32::from(a == b),
            opcode::NE => u32::from(a != b),
            opcode::LT => u32::from((a as i32) < (b as i32)),
            opcode::LTU => u32::from(a < b),
            opcode::SELECT => {
                if a != 0 {
                    b
                } else {
                    c
                }
            }
            _ => 0,
        }
    }

    /// Every opcode (the float ones give 0) on edge and random operands.
    #[test]
    fn every_opcode_equals_its_definition() {
        let mut uut = IntAlu::default();
        uut.connect_all();
        let words = test_words(0x0061_6c75, 120);
        for code in 0..16 {
            for (i, &a) in words.iter().enumerate() {
                let b = words[(i * 7 + code) % words.len()];
                let c = words[(i * 13 + 5) % words.len()];
                for (a, b) in [(a, b), (a, a)] {
                    uut.op.next = (code as u64).into();
                    uut.a.next = u64::from(a).into();
                    uut.b.next = u64::from(b).into();
                    uut.c.next = u64::from(c).into();
                    uut.product.next = u64::from(a.wrapping_mul(b)).into();
                    assert!(simulate(&mut uut, 100));
                    let want = reference(code, a, b, c);
                    assert_eq!(
                        uut.result.val(),
                        Bits::<32>::from(u64::from(want)),
                        "opcode {code}: a {a:#x} b {b:#x} c {c:#x}"
                    );
                }
            }
        }
    }
}
