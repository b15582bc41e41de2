//! RV32IM decoder of the SIMT core (`simt_core.rs`), with weft's kernel contract
//! (docs/core.md §1): CSR reads of 0xCC0-0xCC3 (thread index, thread count, CTA index,
//! CTA size) and the CTA barrier, a write of CSR 0x8C0.
//!
//! Combinational, no storage. The instruction splits into a class (what the core's
//! state machine does with it), the register fields, the immediate of its format
//! (sign-extended) and the operand choice of the lane ALU (`cgrf/int_alu.rs`, whose
//! opcodes cover RV32I's arithmetic, logic, shifts and compares).
//!
//! ```text
//!  class  instructions                       ALU a      ALU b   result written
//!  ALU    op, op-imm, lui, auipc, fence      rs1|pc|0   rs2|imm ALU
//!  JAL    jal                                pc         4       link; pc+imm
//!  JALR   jalr                               pc         4       link; (rs1+imm)&~1
//!  BRANCH beq bne blt bge bltu bgeu          rs1        rs2     none; taken = bit0 ^ invert
//!  LOAD   lb lh lw lbu lhu                   address = rs1 + imm, the load/store unit
//!  STORE  sb sh sw                           address = rs1 + imm, data rs2
//!  MULDIV mul mulh mulhsu mulhu div divu rem remu: the shared multi-cycle unit
//!  CSR    csrrs rd, 0xCC0..0xCC3, x0         the CSR's value
//!  BARRIER csrrw x0, 0x8C0, x0               the CTA barrier
//! ```
//! Anything else (RV32F, other CSRs, ecall, ebreak) is `illegal`; the loader refuses
//! such kernels before they run, so `illegal` reaching the core is an error.
use rust_hdl::prelude::*;

/// Instruction classes (`kind` output).
pub mod class {
    pub const ALU: u64 = 0;
    pub const JAL: u64 = 1;
    pub const JALR: u64 = 2;
    pub const BRANCH: u64 = 3;
    pub const LOAD: u64 = 4;
    pub const STORE: u64 = 5;
    pub const MULDIV: u64 = 6;
    pub const CSR: u64 = 7;
    pub const BARRIER: u64 = 8;
}

/// ALU operand choices (`a_sel`, `b_sel`).
pub mod operand {
    pub const RS1: u64 = 0;
    pub const PC: u64 = 1;
    pub const ZERO: u64 = 2;
    pub const RS2: u64 = 0;
    pub const IMM: u64 = 1;
    pub const FOUR: u64 = 2;
}

fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(Bits::<N>::from(v))
}

#[derive(LogicBlock)]
pub struct Decoder {
    /// The instruction word.
    pub inst: Signal<In, Bits<32>>,
    /// `class::*` (not named `class`: a SystemVerilog keyword).
    pub kind: Signal<Out, Bits<4>>,
    pub rd: Signal<Out, Bits<5>>,
    pub rs1: Signal<Out, Bits<5>>,
    pub rs2: Signal<Out, Bits<5>>,
    /// The format's immediate, sign-extended.
    pub imm: Signal<Out, Bits<32>>,
    /// `funct3`: the access size of loads and stores, the operation of `MULDIV`.
    pub funct3: Signal<Out, Bits<3>>,
    /// The lane ALU's opcode (`compute_unit::opcode`) and operands (`operand::*`).
    pub alu_op: Signal<Out, Bits<4>>,
    pub a_sel: Signal<Out, Bits<2>>,
    pub b_sel: Signal<Out, Bits<2>>,
    /// A branch is taken when the ALU's bit 0 differs from `invert` (bge, bgeu).
    pub invert: Signal<Out, Bit>,
    /// `rd` is written (and is not x0).
    pub writes: Signal<Out, Bit>,
    /// The CSR read: 0 thread index, 1 thread count, 2 CTA index, 3 CTA size.
    pub csr: Signal<Out, Bits<2>>,
    /// Not an instruction this core runs.
    pub illegal: Signal<Out, Bit>,
    opcode: Signal<Local, Bits<7>>,
    f3: Signal<Local, Bits<3>>,
    alt: Signal<Local, Bit>,
    muldiv: Signal<Local, Bit>,
    sign: Signal<Local, Bit>,
    csr_no: Signal<Local, Bits<12>>,
    imm_i: Signal<Local, Bits<32>>,
    imm_s: Signal<Local, Bits<32>>,
    imm_b: Signal<Local, Bits<32>>,
    imm_u: Signal<Local, Bits<32>>,
    imm_j: Signal<Local, Bits<32>>,
    cls: Signal<Local, Bits<4>>,
    bad: Signal<Local, Bit>,
    // opcodes
    op_lui: Constant<Bits<7>>,
    op_auipc: Constant<Bits<7>>,
    op_jal: Constant<Bits<7>>,
    op_jalr: Constant<Bits<7>>,
    op_branch: Constant<Bits<7>>,
    op_load: Constant<Bits<7>>,
    op_store: Constant<Bits<7>>,
    op_imm: Constant<Bits<7>>,
    op_reg: Constant<Bits<7>>,
    op_fence: Constant<Bits<7>>,
    op_system: Constant<Bits<7>>,
    // shifts and masks of the immediates
    s4: Constant<Bits<32>>,
    s7: Constant<Bits<32>>,
    s9: Constant<Bits<32>>,
    s20: Constant<Bits<32>>,
    m_hi12: Constant<Bits<32>>,
    m_hi11: Constant<Bits<32>>,
    m_lo5: Constant<Bits<32>>,
    m_fe0: Constant<Bits<32>>,
    m_7e0: Constant<Bits<32>>,
    m_1e: Constant<Bits<32>>,
    m_800: Constant<Bits<32>>,
    m_7fe: Constant<Bits<32>>,
    m_ff000: Constant<Bits<32>>,
    m_fff: Constant<Bits<32>>,
    m_u: Constant<Bits<32>>,
    // classes, ALU opcodes, funct3 values, CSR numbers
    c_alu: Constant<Bits<4>>,
    c_jal: Constant<Bits<4>>,
    c_jalr: Constant<Bits<4>>,
    c_branch: Constant<Bits<4>>,
    c_load: Constant<Bits<4>>,
    c_store: Constant<Bits<4>>,
    c_muldiv: Constant<Bits<4>>,
    c_csr: Constant<Bits<4>>,
    c_barrier: Constant<Bits<4>>,
    alu: [Constant<Bits<4>>; 14],
    f: [Constant<Bits<3>>; 8],
    sel: [Constant<Bits<2>>; 3],
    /// 0xCC0 >> 2: the four thread CSRs share their upper ten bits.
    csr_base: Constant<Bits<10>>,
    csr_barrier: Constant<Bits<12>>,
    zero5: Constant<Bits<5>>,
    zero7: Constant<Bits<7>>,
    one7: Constant<Bits<7>>,
}

impl Default for Decoder {
    fn default() -> Self {
        Self {
            inst: Default::default(),
            kind: Default::default(),
            rd: Default::default(),
            rs1: Default::default(),
            rs2: Default::default(),
            imm: Default::default(),
            funct3: Default::default(),
            alu_op: Default::default(),
            a_sel: Default::default(),
            b_sel: Default::default(),
            invert: Default::default(),
            writes: Default::default(),
            csr: Default::default(),
            illegal: Default::default(),
            opcode: Default::default(),
            f3: Default::default(),
            alt: Default::default(),
            muldiv: Default::default(),
            sign: Default::default(),
            csr_no: Default::default(),
            imm_i: Default::default(),
            imm_s: Default::default(),
            imm_b: Default::default(),
            imm_u: Default::default(),
            imm_j: Default::default(),
            cls: Default::default(),
            bad: Default::default(),
            op_lui: k(0x37),
            op_auipc: k(0x17),
            op_jal: k(0x6f),
            op_jalr: k(0x67),
            op_branch: k(0x63),
            op_load: k(0x03),
            op_store: k(0x23),
            op_imm: k(0x13),
            op_reg: k(0x33),
            op_fence: k(0x0f),
            op_system: k(0x73),
            s4: k(4),
            s7: k(7),
            s9: k(9),
            s20: k(20),
            m_hi12: k(0xffff_f000),
            m_hi11: k(0xfff0_0000),
            m_lo5: k(0x1f),
            m_fe0: k(0xfe0),
            m_7e0: k(0x7e0),
            m_1e: k(0x1e),
            m_800: k(0x800),
            m_7fe: k(0x7fe),
            m_ff000: k(0xff000),
            m_fff: k(0xfff),
            m_u: k(0xffff_f000),
            c_alu: k(class::ALU),
            c_jal: k(class::JAL),
            c_jalr: k(class::JALR),
            c_branch: k(class::BRANCH),
            c_load: k(class::LOAD),
            c_store: k(class::STORE),
            c_muldiv: k(class::MULDIV),
            c_csr: k(class::CSR),
            c_barrier: k(class::BARRIER),
            alu: array_init::array_init(|i| k(i as u64)),
            f: array_init::array_init(|i| k(i as u64)),
            sel: array_init::array_init(|i| k(i as u64)),
            csr_base: k(0xcc0 >> 2),
            csr_barrier: k(0x8c0),
            zero5: k(0),
            zero7: k(0),
            one7: k(1),
        }
    }
}

impl Logic for Decoder {
    #[hdl_gen]
    fn update(&mut self) {
        self.opcode.next = self.inst.val().get_bits::<7>(0);
        self.f3.next = self.inst.val().get_bits::<3>(12);
        self.alt.next = self.inst.val().get_bit(30);
        self.muldiv.next = self.inst.val().get_bits::<7>(25) == self.one7.val();
        self.sign.next = self.inst.val().get_bit(31);
        self.csr_no.next = self.inst.val().get_bits::<12>(20);
        self.rd.next = self.inst.val().get_bits::<5>(7);
        self.rs1.next = self.inst.val().get_bits::<5>(15);
        self.rs2.next = self.inst.val().get_bits::<5>(20);
        self.funct3.next = self.f3.val();
        // Immediates, sign bit inst[31].
        self.imm_i.next = (self.inst.val() >> self.s20.val()) & self.m_fff.val();
        self.imm_s.next = ((self.inst.val() >> self.s20.val()) & self.m_fe0.val())
            | ((self.inst.val() >> self.s7.val()) & self.m_lo5.val());
        self.imm_b.next = ((self.inst.val() >> self.s20.val()) & self.m_7e0.val())
            | ((self.inst.val() >> self.s7.val()) & self.m_1e.val())
            | ((self.inst.val() << self.s4.val()) & self.m_800.val());
        self.imm_j.next = ((self.inst.val() >> self.s20.val()) & self.m_7fe.val())
            | ((self.inst.val() >> self.s9.val()) & self.m_800.val())
            | (self.inst.val() & self.m_ff000.val());
        if self.sign.val() {
            self.imm_i.next = self.imm_i.val() | self.m_hi12.val();
            self.imm_s.next = self.imm_s.val() | self.m_hi12.val();
            self.imm_b.next = self.imm_b.val() | self.m_hi12.val();
            self.imm_j.next = self.imm_j.val() | self.m_hi11.val();
        }
        self.imm_u.next = self.inst.val() & self.m_u.val();
        // Defaults: an ALU instruction on rs1 and rs2 that writes rd.
        self.cls.next = self.c_alu.val();
        self.imm.next = self.imm_i.val();
        self.alu_op.next = self.alu[0].val();
        self.a_sel.next = self.sel[0].val();
        self.b_sel.next = self.sel[0].val();
        self.invert.next = false;
        self.writes.next = true;
        self.csr.next = self.csr_no.val().get_bits::<2>(0);
        self.bad.next = false;
        // op / op-imm: funct3 picks the operation (0 add/sub, 1 sll, 2 slt, 3 sltu,
        // 4 xor, 5 srl/sra, 6 or, 7 and).
        if (self.opcode.val() == self.op_reg.val()) | (self.opcode.val() == self.op_imm.val()) {
            if self.f3.val() == self.f[1].val() {
                self.alu_op.next = self.alu[6].val();
            }
            if self.f3.val() == self.f[2].val() {
                self.alu_op.next = self.alu[11].val();
            }
            if self.f3.val() == self.f[3].val() {
                self.alu_op.next = self.alu[12].val();
            }
            if self.f3.val() == self.f[4].val() {
                self.alu_op.next = self.alu[5].val();
            }
            if self.f3.val() == self.f[5].val() {
                self.alu_op.next = self.alu[7].val();
                if self.alt.val() {
                    self.alu_op.next = self.alu[8].val();
                }
            }
            if self.f3.val() == self.f[6].val() {
                self.alu_op.next = self.alu[4].val();
            }
            if self.f3.val() == self.f[7].val() {
                self.alu_op.next = self.alu[3].val();
            }
        }
        if self.opcode.val() == self.op_imm.val() {
            self.b_sel.next = self.sel[1].val();
        }
        if self.opcode.val() == self.op_reg.val() {
            if (self.f3.val() == self.f[0].val()) & self.alt.val() {
                self.alu_op.next = self.alu[1].val();
            }
            if self.muldiv.val() {
                self.cls.next = self.c_muldiv.val();
            }
        }
        if self.opcode.val() == self.op_lui.val() {
            self.imm.next = self.imm_u.val();
            self.a_sel.next = self.sel[2].val();
            self.b_sel.next = self.sel[1].val();
        }
        if self.opcode.val() == self.op_auipc.val() {
            self.imm.next = self.imm_u.val();
            self.a_sel.next = self.sel[1].val();
            self.b_sel.next = self.sel[1].val();
        }
        if self.opcode.val() == self.op_fence.val() {
            self.writes.next = false;
        }
        if self.opcode.val() == self.op_jal.val() {
            self.cls.next = self.c_jal.val();
            self.imm.next = self.imm_j.val();
            self.a_sel.next = self.sel[1].val();
            self.b_sel.next = self.sel[2].val();
        }
        if self.opcode.val() == self.op_jalr.val() {
            self.cls.next = self.c_jalr.val();
            self.a_sel.next = self.sel[1].val();
            self.b_sel.next = self.sel[2].val();
        }
        if self.opcode.val() == self.op_branch.val() {
            self.cls.next = self.c_branch.val();
            self.imm.next = self.imm_b.val();
            self.writes.next = false;
            // 0 beq, 1 bne, 4 blt, 5 bge, 6 bltu, 7 bgeu.
            self.alu_op.next = self.alu[9].val();
            if self.f3.val() == self.f[1].val() {
                self.alu_op.next = self.alu[10].val();
            }
            if (self.f3.val() == self.f[4].val()) | (self.f3.val() == self.f[5].val()) {
                self.alu_op.next = self.alu[11].val();
            }
            if (self.f3.val() == self.f[6].val()) | (self.f3.val() == self.f[7].val()) {
                self.alu_op.next = self.alu[12].val();
            }
            self.invert.next =
                (self.f3.val() == self.f[5].val()) | (self.f3.val() == self.f[7].val());
            if (self.f3.val() == self.f[2].val()) | (self.f3.val() == self.f[3].val()) {
                self.bad.next = true;
            }
        }
        if self.opcode.val() == self.op_load.val() {
            self.cls.next = self.c_load.val();
            if (self.f3.val() == self.f[3].val())
                | (self.f3.val() == self.f[6].val())
                | (self.f3.val() == self.f[7].val())
            {
                self.bad.next = true;
            }
        }
        if self.opcode.val() == self.op_store.val() {
            self.cls.next = self.c_store.val();
            self.imm.next = self.imm_s.val();
            self.writes.next = false;
            if !((self.f3.val() == self.f[0].val())
                | (self.f3.val() == self.f[1].val())
                | (self.f3.val() == self.f[2].val()))
            {
                self.bad.next = true;
            }
        }
        if self.opcode.val() == self.op_system.val() {
            self.bad.next = true;
            // csrrs rd, 0xCC0..0xCC3, x0: a read of weft's thread CSRs.
            if (self.f3.val() == self.f[2].val())
                & (self.inst.val().get_bits::<5>(15) == self.zero5.val())
                & (self.csr_no.val().get_bits::<10>(2) == self.csr_base.val())
            {
                self.cls.next = self.c_csr.val();
                self.bad.next = false;
            }
            // csrrw x0, 0x8C0, x0: the CTA barrier.
            if (self.f3.val() == self.f[1].val())
                & (self.csr_no.val() == self.csr_barrier.val())
                & (self.inst.val().get_bits::<5>(7) == self.zero5.val())
            {
                self.cls.next = self.c_barrier.val();
                self.writes.next = false;
                self.bad.next = false;
            }
        }
        if !((self.opcode.val() == self.op_lui.val())
            | (self.opcode.val() == self.op_auipc.val())
            | (self.opcode.val() == self.op_jal.val())
            | (self.opcode.val() == self.op_jalr.val())
            | (self.opcode.val() == self.op_branch.val())
            | (self.opcode.val() == self.op_load.val())
            | (self.opcode.val() == self.op_store.val())
            | (self.opcode.val() == self.op_imm.val())
            | (self.opcode.val() == self.op_reg.val())
            | (self.opcode.val() == self.op_fence.val())
            | (self.opcode.val() == self.op_system.val()))
        {
            self.bad.next = true;
        }
        if (self.opcode.val() == self.op_reg.val())
            & !self.muldiv.val()
            & (self.inst.val().get_bits::<7>(25) != self.zero7.val())
            & !(self.alt.val()
                & ((self.f3.val() == self.f[0].val()) | (self.f3.val() == self.f[5].val())))
        {
            self.bad.next = true;
        }
        if self.rd.val() == self.zero5.val() {
            self.writes.next = false;
        }
        if self.bad.val() {
            self.writes.next = false;
        }
        self.kind.next = self.cls.val();
        self.illegal.next = self.bad.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(word: u32) -> Decoder {
        let mut uut = Decoder::default();
        uut.connect_all();
        uut.inst.next = (word as u64).into();
        assert!(simulate(&mut uut, 100));
        uut
    }

    #[test]
    fn synthesizes() {
        let mut uut = Decoder::default();
        uut.connect_all();
        yosys_validate("simt_decoder", &generate_verilog(&uut)).unwrap();
    }

    #[test]
    fn immediates_and_classes() {
        // addi a0, a0, -1
        let d = decode(0xfff5_0513);
        assert_eq!(d.imm.val(), Bits::<32>::from(0xffff_ffffu64));
        assert_eq!(d.kind.val(), Bits::<4>::from(class::ALU));
        assert!(d.writes.val() && !d.illegal.val());
        // bge a0, a1, -8: B immediate, LT inverted
        let d = decode(0xfeb5_5ce3);
        assert_eq!(d.kind.val(), Bits::<4>::from(class::BRANCH));
        assert_eq!(d.imm.val(), Bits::<32>::from(0xffff_fff8u64));
        assert!(d.invert.val());
        // jal ra, 2048
        let d = decode(0x0010_00ef);
        assert_eq!(d.imm.val(), Bits::<32>::from(0x800u64));
        // sw a1, -4(a0)
        let d = decode(0xfeb5_2e23);
        assert_eq!(d.imm.val(), Bits::<32>::from(0xffff_fffcu64));
        assert_eq!(d.kind.val(), Bits::<4>::from(class::STORE));
        // csrr a0, 0xcc2 and csrw 0x8c0, zero
        let d = decode(0xcc20_2573);
        assert_eq!(d.kind.val(), Bits::<4>::from(class::CSR));
        assert_eq!(d.csr.val(), Bits::<2>::from(2u64));
        let d = decode(0x8c00_1073);
        assert_eq!(d.kind.val(), Bits::<4>::from(class::BARRIER));
        // divu a0, a0, a1: M; fadd.s: illegal
        assert_eq!(
            decode(0x02b5_5533).kind.val(),
            Bits::<4>::from(class::MULDIV)
        );
        assert!(decode(0x00b5_7553).illegal.val());
    }
}
