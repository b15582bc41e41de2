//! RV32IMF decoding (the RISC-V unprivileged ISA, version 20191213): every instruction
//! of RV32I, M and F as one [`Inst`], with the register fields and the immediate
//! already extracted, and its [`Unit`] for the timing model. Compressed, atomic, double
//! and any other encodings are [`Unsupported`] with a message naming the word.
use std::fmt;

/// The operation of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    // RV32I
    Lui,
    Auipc,
    Jal,
    Jalr,
    Beq,
    Bne,
    Blt,
    Bge,
    Bltu,
    Bgeu,
    Lb,
    Lh,
    Lw,
    Lbu,
    Lhu,
    Sb,
    Sh,
    Sw,
    Addi,
    Slti,
    Sltiu,
    Xori,
    Ori,
    Andi,
    Slli,
    Srli,
    Srai,
    Add,
    Sub,
    Sll,
    Slt,
    Sltu,
    Xor,
    Srl,
    Sra,
    Or,
    And,
    Fence,
    Ecall,
    Ebreak,
    Csrrw,
    Csrrs,
    Csrrc,
    Csrrwi,
    Csrrsi,
    Csrrci,
    // M
    Mul,
    Mulh,
    Mulhsu,
    Mulhu,
    Div,
    Divu,
    Rem,
    Remu,
    // F
    Flw,
    Fsw,
    FmaddS,
    FmsubS,
    FnmsubS,
    FnmaddS,
    FaddS,
    FsubS,
    FmulS,
    FdivS,
    FsqrtS,
    FsgnjS,
    FsgnjnS,
    FsgnjxS,
    FminS,
    FmaxS,
    FcvtWS,
    FcvtWuS,
    FmvXW,
    FeqS,
    FltS,
    FleS,
    FclassS,
    FcvtSW,
    FcvtSWu,
    FmvWX,
}

/// The functional unit an instruction occupies in the timing model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Integer arithmetic, logic, compares, `lui`/`auipc`, CSR reads, fences.
    Alu,
    /// Integer multiply (pipelined like the ALU in the papers' machines).
    Mul,
    /// Special function unit: integer divide and remainder, float divide and square root
    /// (fewer lanes, longer latency).
    Sfu,
    /// Float add, multiply, fused multiply-add, compares, conversions, moves.
    Fpu,
    /// Loads and stores.
    Memory,
    /// Branches and jumps.
    Control,
}

/// One decoded instruction. Register numbers index `x` for integer operands and `f` for
/// float operands, as the operation says; `imm` is sign-extended (the CSR number for CSR
/// operations, the zero-extended 5-bit source for their `i` forms in `rs1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inst {
    pub op: Op,
    pub rd: u8,
    pub rs1: u8,
    pub rs2: u8,
    pub rs3: u8,
    /// Rounding-mode field of float operations (7 = dynamic, from `frm`).
    pub rm: u8,
    pub imm: i32,
}

/// What an instruction reads and writes (see [`Inst::registers`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Registers {
    pub reads: [Option<u8>; 3],
    pub write: Option<u8>,
}

/// A word the model does not run, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    pub word: u32,
    pub why: String,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "word {:#010x} is outside RV32IMF: {}",
            self.word, self.why
        )
    }
}

impl std::error::Error for Unsupported {}

fn bits(w: u32, hi: u32, lo: u32) -> u32 {
    (w >> lo) & ((1u32 << (hi - lo + 1)) - 1)
}

fn sext(v: u32, width: u32) -> i32 {
    ((v << (32 - width)) as i32) >> (32 - width)
}

/// Decodes one 32-bit instruction word.
pub fn decode(w: u32) -> Result<Inst, Unsupported> {
    let no = |why: &str| Unsupported {
        word: w,
        why: why.to_string(),
    };
    if w & 3 != 3 {
        return Err(no("a compressed (16-bit) instruction"));
    }
    let opcode = bits(w, 6, 0);
    let rd = bits(w, 11, 7) as u8;
    let f3 = bits(w, 14, 12);
    let rs1 = bits(w, 19, 15) as u8;
    let rs2 = bits(w, 24, 20) as u8;
    let f7 = bits(w, 31, 25);
    let i_imm = sext(bits(w, 31, 20), 12);
    let s_imm = sext((bits(w, 31, 25) << 5) | bits(w, 11, 7), 12);
    let b_imm = sext(
        (bits(w, 31, 31) << 12)
            | (bits(w, 7, 7) << 11)
            | (bits(w, 30, 25) << 5)
            | (bits(w, 11, 8) << 1),
        13,
    );
    let u_imm = (w & 0xffff_f000) as i32;
    let j_imm = sext(
        (bits(w, 31, 31) << 20)
            | (bits(w, 19, 12) << 12)
            | (bits(w, 20, 20) << 11)
            | (bits(w, 30, 21) << 1),
        21,
    );
    let inst = |op, rd, rs1, rs2, imm| Inst {
        op,
        rd,
        rs1,
        rs2,
        rs3: 0,
        rm: 0,
        imm,
    };
    use Op::*;
    let op = match opcode {
        0x37 => return Ok(inst(Lui, rd, 0, 0, u_imm)),
        0x17 => return Ok(inst(Auipc, rd, 0, 0, u_imm)),
        0x6f => return Ok(inst(Jal, rd, 0, 0, j_imm)),
        0x67 if f3 == 0 => return Ok(inst(Jalr, rd, rs1, 0, i_imm)),
        0x63 => {
            let op = match f3 {
                0 => Beq,
                1 => Bne,
                4 => Blt,
                5 => Bge,
                6 => Bltu,
                7 => Bgeu,
                _ => return Err(no("reserved branch funct3")),
            };
            return Ok(inst(op, 0, rs1, rs2, b_imm));
        }
        0x03 => {
            let op = match f3 {
                0 => Lb,
                1 => Lh,
                2 => Lw,
                4 => Lbu,
                5 => Lhu,
                _ => return Err(no("reserved load width")),
            };
            return Ok(inst(op, rd, rs1, 0, i_imm));
        }
        0x23 => {
            let op = match f3 {
                0 => Sb,
                1 => Sh,
                2 => Sw,
                _ => return Err(no("reserved store width")),
            };
            return Ok(inst(op, 0, rs1, rs2, s_imm));
        }
        0x13 => {
            let shamt = bits(w, 24, 20) as i32;
            let op = match (f3, f7) {
                (0, _) => Addi,
                (2, _) => Slti,
                (3, _) => Sltiu,
                (4, _) => Xori,
                (6, _) => Ori,
                (7, _) => Andi,
                (1, 0) => return Ok(inst(Slli, rd, rs1, 0, shamt)),
                (5, 0) => return Ok(inst(Srli, rd, rs1, 0, shamt)),
                (5, 0x20) => return Ok(inst(Srai, rd, rs1, 0, shamt)),
                _ => return Err(no("reserved shift-immediate encoding")),
            };
            return Ok(inst(op, rd, rs1, 0, i_imm));
        }
        0x33 => match (f7, f3) {
            (0, 0) => Add,
            (0x20, 0) => Sub,
            (0, 1) => Sll,
            (0, 2) => Slt,
            (0, 3) => Sltu,
            (0, 4) => Xor,
            (0, 5) => Srl,
            (0x20, 5) => Sra,
            (0, 6) => Or,
            (0, 7) => And,
            (1, 0) => Mul,
            (1, 1) => Mulh,
            (1, 2) => Mulhsu,
            (1, 3) => Mulhu,
            (1, 4) => Div,
            (1, 5) => Divu,
            (1, 6) => Rem,
            (1, 7) => Remu,
            _ => return Err(no("reserved register-register encoding")),
        },
        0x0f => return Ok(inst(Fence, 0, 0, 0, 0)),
        0x73 => {
            let csr = bits(w, 31, 20) as i32;
            let op = match f3 {
                0 if w == 0x0000_0073 => return Ok(inst(Ecall, 0, 0, 0, 0)),
                0 if w == 0x0010_0073 => return Ok(inst(Ebreak, 0, 0, 0, 0)),
                1 => Csrrw,
                2 => Csrrs,
                3 => Csrrc,
                5 => Csrrwi,
                6 => Csrrsi,
                7 => Csrrci,
                _ => return Err(no("a privileged or reserved system instruction")),
            };
            return Ok(inst(op, rd, rs1, 0, csr));
        }
        0x07 if f3 == 2 => return Ok(inst(Flw, rd, rs1, 0, i_imm)),
        0x27 if f3 == 2 => return Ok(inst(Fsw, 0, rs1, rs2, s_imm)),
        0x43 | 0x47 | 0x4b | 0x4f => {
            if bits(w, 26, 25) != 0 {
                return Err(no("a fused multiply-add of a format other than single"));
            }
            let op = match opcode {
                0x43 => FmaddS,
                0x47 => FmsubS,
                0x4b => FnmsubS,
                _ => FnmaddS,
            };
            let rm = rounding(f3).ok_or_else(|| no("reserved rounding mode"))?;
            return Ok(Inst {
                op,
                rd,
                rs1,
                rs2,
                rs3: bits(w, 31, 27) as u8,
                rm,
                imm: 0,
            });
        }
        0x53 => {
            let with_rm = |op| -> Result<Inst, Unsupported> {
                let rm = rounding(f3).ok_or_else(|| no("reserved rounding mode"))?;
                Ok(Inst {
                    rm,
                    ..inst(op, rd, rs1, rs2, 0)
                })
            };
            match (f7, f3, rs2) {
                (0x00, _, _) => return with_rm(FaddS),
                (0x04, _, _) => return with_rm(FsubS),
                (0x08, _, _) => return with_rm(FmulS),
                (0x0c, _, _) => return with_rm(FdivS),
                (0x2c, _, 0) => return with_rm(FsqrtS),
                (0x10, 0, _) => FsgnjS,
                (0x10, 1, _) => FsgnjnS,
                (0x10, 2, _) => FsgnjxS,
                (0x14, 0, _) => FminS,
                (0x14, 1, _) => FmaxS,
                (0x60, _, 0) => return with_rm(FcvtWS),
                (0x60, _, 1) => return with_rm(FcvtWuS),
                (0x70, 0, 0) => FmvXW,
                (0x50, 2, _) => FeqS,
                (0x50, 1, _) => FltS,
                (0x50, 0, _) => FleS,
                (0x70, 1, 0) => FclassS,
                (0x68, _, 0) => return with_rm(FcvtSW),
                (0x68, _, 1) => return with_rm(FcvtSWu),
                (0x78, 0, 0) => FmvWX,
                _ => return Err(no("a float operation outside F (double, half or reserved)")),
            }
        }
        0x07 | 0x27 => {
            return Err(no(
                "a float load or store wider than single (D or Q extension)",
            ))
        }
        0x2f => return Err(no("an atomic memory operation (A extension)")),
        _ => return Err(no("an opcode outside RV32IMF")),
    };
    Ok(inst(op, rd, rs1, rs2, 0))
}

/// A valid rounding-mode field (0..=4 static, 7 dynamic).
fn rounding(f3: u32) -> Option<u8> {
    matches!(f3, 0..=4 | 7).then_some(f3 as u8)
}

impl Inst {
    /// A conditional branch.
    pub fn is_branch(&self) -> bool {
        use Op::*;
        matches!(self.op, Beq | Bne | Blt | Bge | Bltu | Bgeu)
    }

    /// `jal` or `jalr`.
    pub fn is_jump(&self) -> bool {
        matches!(self.op, Op::Jal | Op::Jalr)
    }

    pub fn is_load(&self) -> bool {
        use Op::*;
        matches!(self.op, Lb | Lh | Lw | Lbu | Lhu | Flw)
    }

    pub fn is_store(&self) -> bool {
        matches!(self.op, Op::Sb | Op::Sh | Op::Sw | Op::Fsw)
    }

    /// The registers the instruction reads and the one it writes, as a scoreboard sees
    /// them: 0..=31 are `x0..x31`, 32..=63 are `f0..f31`; `x0` is left out.
    pub fn registers(&self) -> Registers {
        use Op::*;
        let x = |r: u8| (r != 0).then_some(r);
        let f = |r: u8| Some(32 + r);
        let (rd, rs1, rs2, rs3) = (self.rd, self.rs1, self.rs2, self.rs3);
        let (reads, write) = match self.op {
            Lui | Auipc | Jal => ([None, None, None], x(rd)),
            Jalr | Lb | Lh | Lw | Lbu | Lhu | Addi | Slti | Sltiu | Xori | Ori | Andi | Slli
            | Srli | Srai | Csrrw | Csrrs | Csrrc => ([x(rs1), None, None], x(rd)),
            Csrrwi | Csrrsi | Csrrci => ([None, None, None], x(rd)),
            Beq | Bne | Blt | Bge | Bltu | Bgeu | Sb | Sh | Sw => ([x(rs1), x(rs2), None], None),
            Add | Sub | Sll | Slt | Sltu | Xor | Srl | Sra | Or | And | Mul | Mulh | Mulhsu
            | Mulhu | Div | Divu | Rem | Remu => ([x(rs1), x(rs2), None], x(rd)),
            Fence | Ecall | Ebreak => ([None, None, None], None),
            Flw => ([x(rs1), None, None], f(rd)),
            Fsw => ([x(rs1), f(rs2), None], None),
            FmaddS | FmsubS | FnmsubS | FnmaddS => ([f(rs1), f(rs2), f(rs3)], f(rd)),
            FaddS | FsubS | FmulS | FdivS | FsgnjS | FsgnjnS | FsgnjxS | FminS | FmaxS => {
                ([f(rs1), f(rs2), None], f(rd))
            }
            FsqrtS => ([f(rs1), None, None], f(rd)),
            FcvtWS | FcvtWuS | FmvXW | FclassS => ([f(rs1), None, None], x(rd)),
            FeqS | FltS | FleS => ([f(rs1), f(rs2), None], x(rd)),
            FcvtSW | FcvtSWu | FmvWX => ([x(rs1), None, None], f(rd)),
        };
        Registers { reads, write }
    }

    /// The unit this instruction occupies.
    pub fn unit(&self) -> Unit {
        use Op::*;
        match self.op {
            _ if self.is_load() || self.is_store() => Unit::Memory,
            _ if self.is_branch() || self.is_jump() => Unit::Control,
            Mul | Mulh | Mulhsu | Mulhu => Unit::Mul,
            Div | Divu | Rem | Remu | FdivS | FsqrtS => Unit::Sfu,
            FmaddS | FmsubS | FnmsubS | FnmaddS | FaddS | FsubS | FmulS | FsgnjS | FsgnjnS
            | FsgnjxS | FminS | FmaxS | FcvtWS | FcvtWuS | FmvXW | FeqS | FltS | FleS | FclassS
            | FcvtSW | FcvtSWu | FmvWX => Unit::Fpu,
            _ => Unit::Alu,
        }
    }

    /// The assembler mnemonic.
    pub fn mnemonic(&self) -> String {
        let name = format!("{:?}", self.op);
        // `FaddS` -> `fadd.s`, `FcvtWuS` -> `fcvt.wu.s`, `FmvXW` -> `fmv.x.w`.
        let mut out = String::new();
        for (i, c) in name.chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                out.push('.');
            }
            out.push(c.to_ascii_lowercase());
        }
        match self.op {
            Op::FcvtWuS => "fcvt.wu.s".into(),
            Op::FcvtSWu => "fcvt.s.wu".into(),
            _ => out,
        }
    }
}

/// The ABI names of the integer registers, as disassemblers print them.
const X_NAMES: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6",
];
/// The ABI names of the float registers.
const F_NAMES: [&str; 32] = [
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2",
    "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9",
    "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
];

impl Inst {
    /// The instruction in assembler syntax (ABI register names), as it sits at `pc`:
    /// branch and `jal` targets are absolute addresses.
    pub fn assembly(&self, pc: u32) -> String {
        use Op::*;
        let x = |r: u8| X_NAMES[r as usize & 31];
        let f = |r: u8| F_NAMES[r as usize & 31];
        let (rd, rs1, rs2, rs3, imm) = (self.rd, self.rs1, self.rs2, self.rs3, self.imm);
        let target = pc.wrapping_add(imm as u32);
        let operands = match self.op {
            Lui | Auipc => format!("{}, {:#x}", x(rd), (imm as u32) >> 12),
            Jal => format!("{}, {target:#x}", x(rd)),
            Jalr | Lb | Lh | Lw | Lbu | Lhu => format!("{}, {imm}({})", x(rd), x(rs1)),
            Beq | Bne | Blt | Bge | Bltu | Bgeu => format!("{}, {}, {target:#x}", x(rs1), x(rs2)),
            Sb | Sh | Sw => format!("{}, {imm}({})", x(rs2), x(rs1)),
            Addi | Slti | Sltiu | Xori | Ori | Andi | Slli | Srli | Srai => {
                format!("{}, {}, {imm}", x(rd), x(rs1))
            }
            Add | Sub | Sll | Slt | Sltu | Xor | Srl | Sra | Or | And | Mul | Mulh | Mulhsu
            | Mulhu | Div | Divu | Rem | Remu => format!("{}, {}, {}", x(rd), x(rs1), x(rs2)),
            Fence | Ecall | Ebreak => String::new(),
            Csrrw | Csrrs | Csrrc => format!("{}, {:#x}, {}", x(rd), imm, x(rs1)),
            Csrrwi | Csrrsi | Csrrci => format!("{}, {:#x}, {rs1}", x(rd), imm),
            Flw => format!("{}, {imm}({})", f(rd), x(rs1)),
            Fsw => format!("{}, {imm}({})", f(rs2), x(rs1)),
            FmaddS | FmsubS | FnmsubS | FnmaddS => {
                format!("{}, {}, {}, {}", f(rd), f(rs1), f(rs2), f(rs3))
            }
            FaddS | FsubS | FmulS | FdivS | FsgnjS | FsgnjnS | FsgnjxS | FminS | FmaxS => {
                format!("{}, {}, {}", f(rd), f(rs1), f(rs2))
            }
            FsqrtS => format!("{}, {}", f(rd), f(rs1)),
            FcvtWS | FcvtWuS | FmvXW | FclassS => format!("{}, {}", x(rd), f(rs1)),
            FeqS | FltS | FleS => format!("{}, {}, {}", x(rd), f(rs1), f(rs2)),
            FcvtSW | FcvtSWu | FmvWX => format!("{}, {}", f(rd), x(rs1)),
        };
        if operands.is_empty() {
            self.mnemonic()
        } else {
            format!("{:<8} {operands}", self.mnemonic())
        }
    }
}

impl fmt::Display for Inst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} rd={} rs1={} rs2={} imm={}",
            self.mnemonic(),
            self.rd,
            self.rs1,
            self.rs2,
            self.imm
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(op: Op, rd: u8, rs1: u8, rs2: u8, rs3: u8) -> Inst {
        Inst {
            op,
            rd,
            rs1,
            rs2,
            rs3,
            rm: 0,
            imm: 0,
        }
    }

    #[test]
    fn assembly_reads_as_a_disassembler_prints_it() {
        let mut load = inst(Op::Lw, 10, 2, 0, 0);
        load.imm = -8;
        assert_eq!(load.assembly(0x100), "lw       a0, -8(sp)");
        let mut branch = inst(Op::Bne, 0, 15, 0, 0);
        branch.imm = -12;
        assert_eq!(branch.assembly(0x110), "bne      a5, zero, 0x104");
        assert_eq!(
            inst(Op::FmaddS, 1, 2, 3, 4).assembly(0),
            "fmadd.s  ft1, ft2, ft3, ft4"
        );
        assert_eq!(inst(Op::Ecall, 0, 0, 0, 0).assembly(0), "ecall");
    }

    #[test]
    fn registers_name_the_right_file_and_leave_out_x0() {
        let r = inst(Op::FmaddS, 1, 2, 3, 4).registers();
        assert_eq!(
            (r.reads, r.write),
            ([Some(34), Some(35), Some(36)], Some(33))
        );
        let r = inst(Op::Add, 0, 1, 2, 0).registers();
        assert_eq!((r.reads, r.write), ([Some(1), Some(2), None], None));
        let r = inst(Op::Fsw, 0, 6, 5, 0).registers();
        assert_eq!((r.reads, r.write), ([Some(6), Some(37), None], None));
        let r = inst(Op::FcvtWS, 7, 8, 0, 0).registers();
        assert_eq!((r.reads, r.write), ([Some(40), None, None], Some(7)));
        let r = inst(Op::FcvtSW, 7, 8, 0, 0).registers();
        assert_eq!((r.reads, r.write), ([Some(8), None, None], Some(39)));
        let r = inst(Op::Csrrs, 10, 0, 0, 0).registers();
        assert_eq!((r.reads, r.write), ([None, None, None], Some(10)));
        let r = inst(Op::Bne, 0, 3, 0, 0).registers();
        assert_eq!((r.reads, r.write), ([Some(3), None, None], None));
    }
}
