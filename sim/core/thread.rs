//! One thread's architectural state and the execution of one decoded instruction, per
//! the RISC-V unprivileged spec (20191213): RV32I, M and F (IEEE 754 binary32).
//!
//! Float choices, all the spec's: every NaN result is the canonical `0x7fc00000`; fused
//! multiply-adds round once; `fmin`/`fmax` return the non-NaN operand and order -0 below
//! +0; `fcvt` to integers saturates (NaN to the largest value) and raises NV; flags
//! accrue in `fflags`. Rounding: every mode is exact for conversions, add, subtract,
//! multiply, divide and square root (the round-to-nearest result is corrected by the
//! sign of its exact error, found with error-free transformations). A fused
//! multiply-add under a mode other than round-to-nearest-even is refused with a fault
//! naming it: its exact error needs wider arithmetic than this model carries, and
//! compiled kernels do not use it.
//!
//! Execution happens here, at issue; the timing model decides only who runs when.
use crate::core::isa::{Inst, Op};
use std::fmt;

/// `ra` of a kernel's threads at launch: a jump here is the kernel's return.
pub const EXIT_PC: u32 = 0xffff_fff0;

/// weft's custom read-only user CSRs (`kernels/include/weft.h`).
pub const CSR_TID: u32 = 0xcc0;
pub const CSR_NTID: u32 = 0xcc1;
pub const CSR_CTAID: u32 = 0xcc2;
pub const CSR_CTA_SIZE: u32 = 0xcc3;
/// A write to this custom read/write user CSR is the CTA barrier.
pub const CSR_BARRIER: u32 = 0x8c0;
/// The F extension's CSRs.
pub const CSR_FFLAGS: u32 = 0x001;
pub const CSR_FRM: u32 = 0x002;
pub const CSR_FCSR: u32 = 0x003;

/// Accrued exception flags (fflags bits).
pub const NV: u32 = 0x10;
pub const DZ: u32 = 0x08;
pub const OF: u32 = 0x04;
pub const UF: u32 = 0x02;
pub const NX: u32 = 0x01;

const CANONICAL_NAN: u32 = 0x7fc0_0000;

/// Byte-addressed memory as a thread sees it (little-endian; sizes 1, 2 and 4).
pub trait Memory {
    fn load(&mut self, addr: u32, size: u32) -> Result<u32, MemFault>;
    fn store(&mut self, addr: u32, size: u32, value: u32) -> Result<(), MemFault>;
}

/// Why an access failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemFault {
    /// Outside every region the thread may touch (or a store into code).
    Outside,
    /// Partly in CTA-shared memory (`WEFT_SHARED`) and partly not.
    StraddlesShared,
    /// In CTA-shared memory from code that runs in no CTA (`weft_setup`).
    SharedOutsideCta,
}

/// The coordinates a thread reads from weft's CSRs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ThreadEnv {
    pub tid: u32,
    pub ntid: u32,
    pub ctaid: u32,
    pub cta_size: u32,
}

/// What an instruction did, as the timing model needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Anything else: the pc moved on by 4.
    Next,
    /// A conditional branch and whether it was taken.
    Branch { taken: bool },
    /// `jal` / `jalr` to the new pc.
    Jump,
    /// A load of `size` bytes at `addr`.
    Load { addr: u32, size: u32 },
    /// A store of `size` bytes at `addr`.
    Store { addr: u32, size: u32 },
    /// The CTA barrier (`csrw 0x8c0`): the pc has moved on; the thread waits there.
    Barrier,
    /// The thread returned from the kernel (jumped to [`EXIT_PC`]).
    Exit,
}

/// An instruction the thread cannot execute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub pc: u32,
    pub inst: String,
    pub why: String,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` at {:#x}: {}", self.inst, self.pc, self.why)
    }
}

impl std::error::Error for Fault {}

/// One thread's registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thread {
    pub pc: u32,
    pub x: [u32; 32],
    /// Float registers as raw binary32 bits.
    pub f: [u32; 32],
    /// `frm` in bits 7..5, `fflags` in bits 4..0.
    pub fcsr: u32,
}

impl Thread {
    /// A thread about to run the instruction at `pc`, every register zero.
    pub fn new(pc: u32) -> Thread {
        Thread {
            pc,
            x: [0; 32],
            f: [0; 32],
            fcsr: 0,
        }
    }

    fn set_x(&mut self, rd: u8, v: u32) {
        if rd != 0 {
            self.x[rd as usize] = v;
        }
    }

    /// Executes `inst`, the instruction at `self.pc`.
    pub fn step(
        &mut self,
        inst: &Inst,
        mem: &mut dyn Memory,
        env: &ThreadEnv,
    ) -> Result<Effect, Fault> {
        let pc = self.pc;
        let fault = |why: String| Fault {
            pc,
            inst: inst.mnemonic(),
            why,
        };
        let a = self.x[inst.rs1 as usize];
        let b = self.x[inst.rs2 as usize];
        let imm = inst.imm as u32;
        let mut next = pc.wrapping_add(4);
        let mut effect = Effect::Next;
        use Op::*;
        match inst.op {
            Lui => self.set_x(inst.rd, imm),
            Auipc => self.set_x(inst.rd, pc.wrapping_add(imm)),
            Jal | Jalr => {
                next = match inst.op {
                    Jal => pc.wrapping_add(imm),
                    _ => a.wrapping_add(imm) & !1,
                };
                self.set_x(inst.rd, pc.wrapping_add(4));
                effect = if next == EXIT_PC {
                    Effect::Exit
                } else {
                    Effect::Jump
                };
                if !next.is_multiple_of(4) && next != EXIT_PC {
                    return Err(fault(format!("jump to misaligned address {next:#x}")));
                }
            }
            Beq | Bne | Blt | Bge | Bltu | Bgeu => {
                let taken = match inst.op {
                    Beq => a == b,
                    Bne => a != b,
                    Blt => (a as i32) < (b as i32),
                    Bge => (a as i32) >= (b as i32),
                    Bltu => a < b,
                    _ => a >= b,
                };
                if taken {
                    next = pc.wrapping_add(imm);
                }
                effect = Effect::Branch { taken };
            }
            Lb | Lh | Lw | Lbu | Lhu | Flw => {
                let size = match inst.op {
                    Lb | Lbu => 1,
                    Lh | Lhu => 2,
                    _ => 4,
                };
                let addr = a.wrapping_add(imm);
                let v = access(mem, addr, size, None).map_err(&fault)?;
                match inst.op {
                    Lb => self.set_x(inst.rd, v as u8 as i8 as i32 as u32),
                    Lh => self.set_x(inst.rd, v as u16 as i16 as i32 as u32),
                    Flw => self.f[inst.rd as usize] = v,
                    _ => self.set_x(inst.rd, v),
                }
                effect = Effect::Load { addr, size };
            }
            Sb | Sh | Sw | Fsw => {
                let size = match inst.op {
                    Sb => 1,
                    Sh => 2,
                    _ => 4,
                };
                let addr = a.wrapping_add(imm);
                let v = match inst.op {
                    Fsw => self.f[inst.rs2 as usize],
                    _ => b,
                };
                access(mem, addr, size, Some(v)).map_err(&fault)?;
                effect = Effect::Store { addr, size };
            }
            Addi => self.set_x(inst.rd, a.wrapping_add(imm)),
            Slti => self.set_x(inst.rd, u32::from((a as i32) < inst.imm)),
            Sltiu => self.set_x(inst.rd, u32::from(a < imm)),
            Xori => self.set_x(inst.rd, a ^ imm),
            Ori => self.set_x(inst.rd, a | imm),
            Andi => self.set_x(inst.rd, a & imm),
            Slli => self.set_x(inst.rd, a << (imm & 31)),
            Srli => self.set_x(inst.rd, a >> (imm & 31)),
            Srai => self.set_x(inst.rd, ((a as i32) >> (imm & 31)) as u32),
            Add => self.set_x(inst.rd, a.wrapping_add(b)),
            Sub => self.set_x(inst.rd, a.wrapping_sub(b)),
            Sll => self.set_x(inst.rd, a << (b & 31)),
            Slt => self.set_x(inst.rd, u32::from((a as i32) < (b as i32))),
            Sltu => self.set_x(inst.rd, u32::from(a < b)),
            Xor => self.set_x(inst.rd, a ^ b),
            Srl => self.set_x(inst.rd, a >> (b & 31)),
            Sra => self.set_x(inst.rd, ((a as i32) >> (b & 31)) as u32),
            Or => self.set_x(inst.rd, a | b),
            And => self.set_x(inst.rd, a & b),
            Fence => {}
            Ecall | Ebreak => {
                return Err(fault(
                    "environment calls and breakpoints have no meaning on the core model".into(),
                ))
            }
            Csrrw | Csrrs | Csrrc | Csrrwi | Csrrsi | Csrrci => {
                let csr = inst.imm as u32 & 0xfff;
                let src = match inst.op {
                    Csrrwi | Csrrsi | Csrrci => u32::from(inst.rs1),
                    _ => a,
                };
                // csrrs/csrrc with x0 (or a zero immediate) only read.
                let writes = matches!(inst.op, Csrrw | Csrrwi) || inst.rs1 != 0;
                let old = self.read_csr(csr, env).map_err(&fault)?;
                if writes {
                    let new = match inst.op {
                        Csrrw | Csrrwi => src,
                        Csrrs | Csrrsi => old | src,
                        _ => old & !src,
                    };
                    if csr == CSR_BARRIER {
                        effect = Effect::Barrier;
                    } else {
                        self.write_csr(csr, new).map_err(&fault)?;
                    }
                }
                self.set_x(inst.rd, old);
            }
            Mul => self.set_x(inst.rd, a.wrapping_mul(b)),
            Mulh => self.set_x(
                inst.rd,
                ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32,
            ),
            Mulhsu => self.set_x(inst.rd, ((i64::from(a as i32) * i64::from(b)) >> 32) as u32),
            Mulhu => self.set_x(inst.rd, ((u64::from(a) * u64::from(b)) >> 32) as u32),
            Div => self.set_x(
                inst.rd,
                match (a as i32, b as i32) {
                    (_, 0) => u32::MAX,
                    (i32::MIN, -1) => i32::MIN as u32,
                    (x, y) => (x / y) as u32,
                },
            ),
            Divu => self.set_x(inst.rd, a.checked_div(b).unwrap_or(u32::MAX)),
            Rem => self.set_x(
                inst.rd,
                match (a as i32, b as i32) {
                    (x, 0) => x as u32,
                    (i32::MIN, -1) => 0,
                    (x, y) => (x % y) as u32,
                },
            ),
            Remu => self.set_x(inst.rd, if b == 0 { a } else { a % b }),
            _ => self.float(inst, env).map_err(&fault)?,
        }
        self.pc = next;
        Ok(effect)
    }

    fn read_csr(&self, csr: u32, env: &ThreadEnv) -> Result<u32, String> {
        Ok(match csr {
            CSR_TID => env.tid,
            CSR_NTID => env.ntid,
            CSR_CTAID => env.ctaid,
            CSR_CTA_SIZE => env.cta_size,
            CSR_BARRIER => 0,
            CSR_FFLAGS => self.fcsr & 0x1f,
            CSR_FRM => (self.fcsr >> 5) & 7,
            CSR_FCSR => self.fcsr & 0xff,
            _ => return Err(format!("CSR {csr:#x} does not exist on the core model")),
        })
    }

    fn write_csr(&mut self, csr: u32, v: u32) -> Result<(), String> {
        match csr {
            CSR_FFLAGS => self.fcsr = (self.fcsr & !0x1f) | (v & 0x1f),
            CSR_FRM => self.fcsr = (self.fcsr & 0x1f) | ((v & 7) << 5),
            CSR_FCSR => self.fcsr = v & 0xff,
            CSR_TID | CSR_NTID | CSR_CTAID | CSR_CTA_SIZE => {
                return Err(format!("CSR {csr:#x} is read-only"))
            }
            _ => return Err(format!("CSR {csr:#x} does not exist on the core model")),
        }
        Ok(())
    }

    /// The F extension.
    fn float(&mut self, inst: &Inst, _env: &ThreadEnv) -> Result<(), String> {
        use Op::*;
        let fa = self.f[inst.rs1 as usize];
        let fb = self.f[inst.rs2 as usize];
        let fc = self.f[inst.rs3 as usize];
        let rm = || -> Result<Rounding, String> {
            let mode = if inst.rm == 7 {
                (self.fcsr >> 5) & 7
            } else {
                u32::from(inst.rm)
            };
            Rounding::from_bits(mode).ok_or_else(|| format!("rounding mode {mode} is reserved"))
        };
        let mut flags = 0;
        match inst.op {
            FaddS | FsubS | FmulS | FdivS | FsqrtS => {
                let mode = rm()?;
                let (x, y) = (f32::from_bits(fa), f32::from_bits(fb));
                let (r, f) = match inst.op {
                    FaddS => add(x, y, mode),
                    FsubS => add(x, -y, mode),
                    FmulS => mul(x, y, mode),
                    FdivS => div(x, y, mode),
                    _ => sqrt(x, mode),
                };
                flags |= f | snan_flags(&[fa, fb]);
                self.f[inst.rd as usize] = canonical(r);
            }
            FmaddS | FmsubS | FnmsubS | FnmaddS => {
                let mode = rm()?;
                let (x, y, z) = (f32::from_bits(fa), f32::from_bits(fb), f32::from_bits(fc));
                let (x, z) = match inst.op {
                    FmaddS => (x, z),
                    FmsubS => (x, -z),
                    FnmsubS => (-x, z),
                    _ => (-x, -z),
                };
                if mode != Rounding::Rne {
                    return Err(format!(
                        "fused multiply-add rounding {mode:?} is not modelled (round to nearest even is)"
                    ));
                }
                let r = x.mul_add(y, z);
                flags |= snan_flags(&[fa, fb, fc]);
                // inf * 0 is invalid even when the addend is a quiet NaN; so is inf - inf.
                let inf_times_zero = (x.is_infinite() && y == 0.0) || (x == 0.0 && y.is_infinite());
                let inf_minus_inf = r.is_nan() && !x.is_nan() && !y.is_nan() && !z.is_nan();
                if inf_times_zero || inf_minus_inf {
                    flags |= NV;
                } else if r.is_finite() {
                    flags |= fma_inexact(x, y, z, r);
                } else if x.is_finite() && y.is_finite() && z.is_finite() {
                    flags |= OF | NX;
                }
                self.f[inst.rd as usize] = canonical(r);
            }
            FsgnjS => self.f[inst.rd as usize] = (fa & 0x7fff_ffff) | (fb & 0x8000_0000),
            FsgnjnS => self.f[inst.rd as usize] = (fa & 0x7fff_ffff) | (!fb & 0x8000_0000),
            FsgnjxS => self.f[inst.rd as usize] = fa ^ (fb & 0x8000_0000),
            FminS | FmaxS => {
                flags |= snan_flags(&[fa, fb]);
                let (x, y) = (f32::from_bits(fa), f32::from_bits(fb));
                let r = match (x.is_nan(), y.is_nan()) {
                    (true, true) => CANONICAL_NAN,
                    (true, false) => fb,
                    (false, true) => fa,
                    _ => {
                        // -0 orders below +0.
                        let less = x < y || (x == y && fa & 0x8000_0000 != 0);
                        if (inst.op == FminS) == less {
                            fa
                        } else {
                            fb
                        }
                    }
                };
                self.f[inst.rd as usize] = r;
            }
            FcvtWS | FcvtWuS => {
                let (v, f) = to_int(f32::from_bits(fa), inst.op == FcvtWS, rm()?);
                flags |= f;
                self.set_x(inst.rd, v);
            }
            FcvtSW | FcvtSWu => {
                let a = self.x[inst.rs1 as usize];
                let exact: i64 = if inst.op == FcvtSW {
                    i64::from(a as i32)
                } else {
                    i64::from(a)
                };
                let (r, f) = from_int(exact, rm()?);
                flags |= f;
                self.f[inst.rd as usize] = r.to_bits();
            }
            FmvXW => self.set_x(inst.rd, fa),
            FmvWX => self.f[inst.rd as usize] = self.x[inst.rs1 as usize],
            FeqS | FltS | FleS => {
                let (x, y) = (f32::from_bits(fa), f32::from_bits(fb));
                if inst.op == FeqS {
                    flags |= snan_flags(&[fa, fb]);
                } else if x.is_nan() || y.is_nan() {
                    flags |= NV;
                }
                let r = match inst.op {
                    FeqS => x == y,
                    FltS => x < y,
                    _ => x <= y,
                };
                self.set_x(inst.rd, u32::from(r));
            }
            FclassS => self.set_x(inst.rd, class(fa)),
            _ => unreachable!("integer operations are executed by `step`"),
        }
        self.fcsr |= flags;
        Ok(())
    }
}

/// A load (`value` `None`) or store, aligned to its size.
fn access(mem: &mut dyn Memory, addr: u32, size: u32, value: Option<u32>) -> Result<u32, String> {
    if !addr.is_multiple_of(size) {
        return Err(format!("misaligned {size}-byte access at {addr:#x}"));
    }
    let outside = |f: MemFault| {
        match f {
        MemFault::Outside => format!("{size}-byte access at {addr:#x} is outside the kernel's memory"),
        MemFault::StraddlesShared => format!(
            "{size}-byte access at {addr:#x} straddles the edge of CTA-shared memory (WEFT_SHARED): an access is wholly in it or wholly outside"
        ),
        MemFault::SharedOutsideCta => format!(
            "{size}-byte access at {addr:#x} is in CTA-shared memory (WEFT_SHARED), which exists only while a CTA runs (not in weft_setup)"
        ),
    }
    };
    match value {
        None => mem.load(addr, size).map_err(outside),
        Some(v) => mem.store(addr, size, v).map(|()| 0).map_err(outside),
    }
}

/// The rounding modes (frm encodings 0..=4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    Rne,
    Rtz,
    Rdn,
    Rup,
    Rmm,
}

impl Rounding {
    fn from_bits(b: u32) -> Option<Rounding> {
        Some(match b {
            0 => Rounding::Rne,
            1 => Rounding::Rtz,
            2 => Rounding::Rdn,
            3 => Rounding::Rup,
            4 => Rounding::Rmm,
            _ => return None,
        })
    }
}

fn canonical(r: f32) -> u32 {
    if r.is_nan() {
        CANONICAL_NAN
    } else {
        r.to_bits()
    }
}

fn is_snan(bits: u32) -> bool {
    f32::from_bits(bits).is_nan() && bits & 0x0040_0000 == 0
}

fn snan_flags(operands: &[u32]) -> u32 {
    if operands.iter().any(|&b| is_snan(b)) {
        NV
    } else {
        0
    }
}

/// The next binary32 value toward +inf (`up`) or -inf.
fn step_toward(r: f32, up: bool) -> f32 {
    if r.is_nan() || (r.is_infinite() && (r > 0.0) == up) {
        return r;
    }
    if r == 0.0 {
        let tiny = f32::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let b = r.to_bits();
    let away = (r > 0.0) == up;
    f32::from_bits(if away { b + 1 } else { b - 1 })
}

/// Rounds under `mode` given the round-to-nearest-even result `r` and the sign of the
/// exact error `exact - r` (`err` > 0: the exact value is above `r`), plus whether the
/// exact value lies exactly halfway (`tie`). Returns the result and NX/OF/UF flags.
fn directed(r: f32, err: f64, tie: bool, mode: Rounding) -> (f32, u32) {
    if err == 0.0 {
        return (r, 0);
    }
    let out = match mode {
        Rounding::Rne => r,
        Rounding::Rtz => {
            // Toward zero: move back when the nearest value overshot in magnitude.
            if (r > 0.0 && err < 0.0) || (r < 0.0 && err > 0.0) {
                step_toward(r, err > 0.0)
            } else {
                r
            }
        }
        Rounding::Rdn => {
            if err < 0.0 {
                step_toward(r, false)
            } else {
                r
            }
        }
        Rounding::Rup => {
            if err > 0.0 {
                step_toward(r, true)
            } else {
                r
            }
        }
        Rounding::Rmm => {
            // Differs from RNE only on a tie that RNE resolved toward zero.
            if tie && ((r >= 0.0 && err > 0.0) || (r <= 0.0 && err < 0.0)) {
                step_toward(r, err > 0.0)
            } else {
                r
            }
        }
    };
    let mut flags = NX;
    if out.is_infinite() {
        flags |= OF;
    }
    // Tininess after rounding: a nonzero result below the smallest normal magnitude.
    if out.abs() < f32::MIN_POSITIVE {
        flags |= UF;
    }
    // Directed modes never round a finite value to infinity the wrong way.
    if r.is_infinite() && mode != Rounding::Rne && mode != Rounding::Rmm {
        let max = f32::MAX.copysign(r);
        let keep_inf = match mode {
            Rounding::Rtz => false,
            Rounding::Rdn => r < 0.0,
            _ => r > 0.0,
        };
        if !keep_inf {
            return (max, OF | NX);
        }
    }
    (out, flags)
}

/// Rounds an exact f64 value to binary32 under `mode`.
fn round_f64(exact: f64, mode: Rounding) -> (f32, u32) {
    let r = exact as f32; // round to nearest even
    if r.is_infinite() {
        // Overflow: the exact value lies below +inf (above -inf).
        return directed(r, if exact > 0.0 { -1.0 } else { 1.0 }, false, mode);
    }
    let err = exact - f64::from(r);
    directed(r, err, is_tie(r, err), mode)
}

/// Whether an exact value `r + err` lies halfway between `r` and its neighbour.
fn is_tie(r: f32, err: f64) -> bool {
    if err == 0.0 {
        return false;
    }
    let neighbour = step_toward(r, err > 0.0);
    neighbour.is_finite() && (f64::from(neighbour) - f64::from(r)).abs() == 2.0 * err.abs()
}

/// Zero results of exact cancellation: +0, or -0 when rounding down (IEEE 754 §6.3);
/// the sum of two zeros keeps their sign when they agree.
fn zero_sum(x: f32, y: f32, mode: Rounding) -> f32 {
    if x == 0.0 && y == 0.0 && x.is_sign_negative() == y.is_sign_negative() {
        x
    } else if mode == Rounding::Rdn {
        -0.0
    } else {
        0.0
    }
}

fn add(x: f32, y: f32, mode: Rounding) -> (f32, u32) {
    let s = x + y;
    if s.is_nan() {
        let nv = if !x.is_nan() && !y.is_nan() { NV } else { 0 };
        return (s, nv);
    }
    if !x.is_finite() || !y.is_finite() {
        return (s, 0);
    }
    if s.is_infinite() {
        return directed(s, if s > 0.0 { -1.0 } else { 1.0 }, false, mode);
    }
    // Two-sum: x + y = s + e exactly.
    let bb = s - x;
    let e = (x - (s - bb)) + (y - bb);
    if e == 0.0 {
        return (if s == 0.0 { zero_sum(x, y, mode) } else { s }, 0);
    }
    directed(s, f64::from(e), is_tie(s, f64::from(e)), mode)
}

fn mul(x: f32, y: f32, mode: Rounding) -> (f32, u32) {
    let r = x * y;
    if r.is_nan() {
        let nv = if !x.is_nan() && !y.is_nan() { NV } else { 0 };
        return (r, nv);
    }
    if !x.is_finite() || !y.is_finite() || x == 0.0 || y == 0.0 {
        return (r, 0);
    }
    // A binary32 product has at most 48 significant bits: exact in f64.
    let (out, flags) = round_f64(f64::from(x) * f64::from(y), mode);
    (if out == 0.0 { 0.0f32.copysign(r) } else { out }, flags)
}

fn div(x: f32, y: f32, mode: Rounding) -> (f32, u32) {
    let q = x / y;
    if q.is_nan() {
        let nv = if !x.is_nan() && !y.is_nan() { NV } else { 0 };
        return (q, nv);
    }
    if y == 0.0 {
        return (q, if x != 0.0 && x.is_finite() { DZ } else { 0 });
    }
    if !x.is_finite() || !y.is_finite() || x == 0.0 {
        return (q, 0);
    }
    if q.is_infinite() {
        return directed(q, if q > 0.0 { -1.0 } else { 1.0 }, false, mode);
    }
    // x - q*y is exact (one rounding of a representable value); its sign over y's is
    // the sign of the quotient's error, and a tie is a remainder of half a gap times y.
    let rem = (-f64::from(q)).mul_add(f64::from(y), f64::from(x));
    if rem == 0.0 {
        return (q, 0);
    }
    let err = rem / f64::from(y);
    let neighbour = step_toward(q, err > 0.0);
    let tie = neighbour.is_finite()
        && ((f64::from(neighbour) - f64::from(q)) * f64::from(y)).abs() == 2.0 * rem.abs();
    directed(q, err, tie, mode)
}

fn sqrt(x: f32, mode: Rounding) -> (f32, u32) {
    let q = x.sqrt();
    if q.is_nan() {
        return (q, if x.is_nan() { 0 } else { NV });
    }
    if x == 0.0 || x.is_infinite() {
        return (q, 0);
    }
    // x - q*q is exact; a square root is never exactly halfway between two floats.
    let rem = (-f64::from(q)).mul_add(f64::from(q), f64::from(x));
    directed(q, rem, false, mode)
}

/// NX/UF of a finite fused multiply-add result: the exact value `x*y + z` compared with
/// `r` using an error-free product and sums in f64.
fn fma_inexact(x: f32, y: f32, z: f32, r: f32) -> u32 {
    let p = f64::from(x) * f64::from(y); // exact
    let s = p + f64::from(z);
    let e = (p - (s - (s - p))) + (f64::from(z) - (s - p)); // two-sum error of p + z
    let err = (s - f64::from(r)) + e;
    if err == 0.0 {
        return 0;
    }
    if r.abs() < f32::MIN_POSITIVE {
        NX | UF
    } else {
        NX
    }
}

/// `fcvt.w[u].s`: saturating, NV when out of range or NaN, NX when inexact.
fn to_int(x: f32, signed: bool, mode: Rounding) -> (u32, u32) {
    let (lo, hi) = if signed {
        (f64::from(i32::MIN), f64::from(i32::MAX))
    } else {
        (0.0, f64::from(u32::MAX))
    };
    if x.is_nan() {
        return (if signed { i32::MAX as u32 } else { u32::MAX }, NV);
    }
    let v = f64::from(x);
    let rounded = match mode {
        Rounding::Rne => v.round_ties_even(),
        Rounding::Rtz => v.trunc(),
        Rounding::Rdn => v.floor(),
        Rounding::Rup => v.ceil(),
        Rounding::Rmm => v.round(),
    };
    if rounded < lo || rounded > hi {
        let sat = if v < 0.0 { lo } else { hi };
        let bits = if signed {
            sat as i64 as i32 as u32
        } else {
            sat as u32
        };
        return (bits, NV);
    }
    let bits = if signed {
        rounded as i64 as i32 as u32
    } else {
        rounded as u32
    };
    (bits, if rounded != v { NX } else { 0 })
}

/// `fcvt.s.w[u]`: an exact integer rounded to binary32.
fn from_int(v: i64, mode: Rounding) -> (f32, u32) {
    round_f64(v as f64, mode)
}

/// `fclass.s`: one bit of ten.
fn class(bits: u32) -> u32 {
    let x = f32::from_bits(bits);
    let neg = bits >> 31 == 1;
    let bit = if x.is_nan() {
        if is_snan(bits) {
            8
        } else {
            9
        }
    } else if x.is_infinite() {
        if neg {
            0
        } else {
            7
        }
    } else if x == 0.0 {
        if neg {
            3
        } else {
            4
        }
    } else if x.is_subnormal() {
        if neg {
            2
        } else {
            5
        }
    } else if neg {
        1
    } else {
        6
    };
    1 << bit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::isa::{decode, Op};

    // Encoders of the base formats, so tests read like assembly.
    fn r(f7: u32, rs2: u32, rs1: u32, f3: u32, rd: u32, opc: u32) -> u32 {
        (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opc
    }
    fn i(imm: i32, rs1: u32, f3: u32, rd: u32, opc: u32) -> u32 {
        ((imm as u32 & 0xfff) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opc
    }
    fn s(imm: i32, rs2: u32, rs1: u32, f3: u32) -> u32 {
        let v = imm as u32;
        ((v >> 5 & 0x7f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((v & 0x1f) << 7) | 0x23
    }
    fn b(imm: i32, rs2: u32, rs1: u32, f3: u32) -> u32 {
        let v = imm as u32;
        ((v >> 12 & 1) << 31)
            | ((v >> 5 & 0x3f) << 25)
            | (rs2 << 20)
            | (rs1 << 15)
            | (f3 << 12)
            | ((v >> 1 & 0xf) << 8)
            | ((v >> 11 & 1) << 7)
            | 0x63
    }
    fn j(imm: i32, rd: u32) -> u32 {
        let v = imm as u32;
        ((v >> 20 & 1) << 31)
            | ((v >> 1 & 0x3ff) << 21)
            | ((v >> 11 & 1) << 20)
            | ((v >> 12 & 0xff) << 12)
            | (rd << 7)
            | 0x6f
    }
    fn r4(rs3: u32, rs2: u32, rs1: u32, rm: u32, rd: u32, opc: u32) -> u32 {
        (rs3 << 27) | (rs2 << 20) | (rs1 << 15) | (rm << 12) | (rd << 7) | opc
    }
    /// A float R-type operation with rounding mode `rm`.
    fn fop(f7: u32, rs2: u32, rs1: u32, rm: u32, rd: u32) -> u32 {
        r(f7, rs2, rs1, rm, rd, 0x53)
    }

    const ENV: ThreadEnv = ThreadEnv {
        tid: 37,
        ntid: 1024,
        ctaid: 1,
        cta_size: 32,
    };

    /// 64 bytes of memory at 0x1000.
    struct Bytes(Vec<u8>);
    impl Memory for Bytes {
        fn load(&mut self, addr: u32, size: u32) -> Result<u32, MemFault> {
            let at = addr.checked_sub(0x1000).ok_or(MemFault::Outside)? as usize;
            let b = self
                .0
                .get(at..at + size as usize)
                .ok_or(MemFault::Outside)?;
            Ok(b.iter().rev().fold(0, |v, &x| (v << 8) | u32::from(x)))
        }
        fn store(&mut self, addr: u32, size: u32, value: u32) -> Result<(), MemFault> {
            let at = addr.checked_sub(0x1000).ok_or(MemFault::Outside)? as usize;
            let b = self
                .0
                .get_mut(at..at + size as usize)
                .ok_or(MemFault::Outside)?;
            for (k, x) in b.iter_mut().enumerate() {
                *x = (value >> (8 * k)) as u8;
            }
            Ok(())
        }
    }

    /// Runs one instruction word on `t` at pc 0x100.
    fn run1(t: &mut Thread, mem: &mut Bytes, word: u32) -> Result<Effect, Fault> {
        t.pc = 0x100;
        let inst = decode(word).unwrap_or_else(|e| panic!("{e}"));
        t.step(&inst, mem, &ENV)
    }

    fn with_x(pairs: &[(usize, u32)]) -> Thread {
        let mut t = Thread::new(0x100);
        for &(k, v) in pairs {
            t.x[k] = v;
        }
        t
    }

    fn mem() -> Bytes {
        Bytes(
            (0..64)
                .map(|k| (k as u8).wrapping_mul(37).wrapping_add(0x81))
                .collect(),
        )
    }

    /// x3 = op(x1, x2) for an R-type integer operation.
    fn alu(f7: u32, f3: u32, a: u32, bv: u32) -> u32 {
        let mut t = with_x(&[(1, a), (2, bv)]);
        run1(&mut t, &mut mem(), r(f7, 2, 1, f3, 3, 0x33)).unwrap();
        t.x[3]
    }

    fn fl(v: f32) -> u32 {
        v.to_bits()
    }

    /// f3 = op(f1, f2) with rounding `rm`; the result bits and fflags.
    fn fbin(f7: u32, rm: u32, a: f32, bv: f32) -> (u32, u32) {
        fbin_bits(f7, rm, fl(a), fl(bv))
    }
    fn fbin_bits(f7: u32, rm: u32, a: u32, bv: u32) -> (u32, u32) {
        let mut t = Thread::new(0x100);
        t.f[1] = a;
        t.f[2] = bv;
        run1(&mut t, &mut mem(), fop(f7, 2, 1, rm, 3)).unwrap();
        (t.f[3], t.fcsr & 0x1f)
    }

    #[test]
    fn every_rv32imf_instruction_decodes_to_its_operation() {
        use Op::*;
        let cases = [
            (0x0000_10b7, Lui),
            (0x0000_1097, Auipc),
            (j(8, 1), Jal),
            (i(4, 1, 0, 0, 0x67), Jalr),
            (b(8, 2, 1, 0), Beq),
            (b(8, 2, 1, 1), Bne),
            (b(8, 2, 1, 4), Blt),
            (b(8, 2, 1, 5), Bge),
            (b(8, 2, 1, 6), Bltu),
            (b(8, 2, 1, 7), Bgeu),
            (i(0, 1, 0, 3, 0x03), Lb),
            (i(0, 1, 1, 3, 0x03), Lh),
            (i(0, 1, 2, 3, 0x03), Lw),
            (i(0, 1, 4, 3, 0x03), Lbu),
            (i(0, 1, 5, 3, 0x03), Lhu),
            (s(0, 2, 1, 0), Sb),
            (s(0, 2, 1, 1), Sh),
            (s(0, 2, 1, 2), Sw),
            (i(1, 1, 0, 3, 0x13), Addi),
            (i(1, 1, 2, 3, 0x13), Slti),
            (i(1, 1, 3, 3, 0x13), Sltiu),
            (i(1, 1, 4, 3, 0x13), Xori),
            (i(1, 1, 6, 3, 0x13), Ori),
            (i(1, 1, 7, 3, 0x13), Andi),
            (i(3, 1, 1, 3, 0x13), Slli),
            (i(3, 1, 5, 3, 0x13), Srli),
            (i(0x403, 1, 5, 3, 0x13), Srai),
            (r(0, 2, 1, 0, 3, 0x33), Add),
            (r(0x20, 2, 1, 0, 3, 0x33), Sub),
            (r(0, 2, 1, 1, 3, 0x33), Sll),
            (r(0, 2, 1, 2, 3, 0x33), Slt),
            (r(0, 2, 1, 3, 3, 0x33), Sltu),
            (r(0, 2, 1, 4, 3, 0x33), Xor),
            (r(0, 2, 1, 5, 3, 0x33), Srl),
            (r(0x20, 2, 1, 5, 3, 0x33), Sra),
            (r(0, 2, 1, 6, 3, 0x33), Or),
            (r(0, 2, 1, 7, 3, 0x33), And),
            (0x0ff0_000f, Fence),
            (0x0000_0073, Ecall),
            (0x0010_0073, Ebreak),
            (i(0x8c0, 1, 1, 0, 0x73), Csrrw),
            (i(0xcc0, 0, 2, 3, 0x73), Csrrs),
            (i(0x001, 1, 3, 3, 0x73), Csrrc),
            (i(0x002, 5, 5, 3, 0x73), Csrrwi),
            (i(0x001, 5, 6, 3, 0x73), Csrrsi),
            (i(0x001, 5, 7, 3, 0x73), Csrrci),
            (r(1, 2, 1, 0, 3, 0x33), Mul),
            (r(1, 2, 1, 1, 3, 0x33), Mulh),
            (r(1, 2, 1, 2, 3, 0x33), Mulhsu),
            (r(1, 2, 1, 3, 3, 0x33), Mulhu),
            (r(1, 2, 1, 4, 3, 0x33), Div),
            (r(1, 2, 1, 5, 3, 0x33), Divu),
            (r(1, 2, 1, 6, 3, 0x33), Rem),
            (r(1, 2, 1, 7, 3, 0x33), Remu),
            (i(0, 1, 2, 3, 0x07), Flw),
            (s(0, 2, 1, 2) & !0x7f | 0x27, Fsw),
            (r4(4, 2, 1, 0, 3, 0x43), FmaddS),
            (r4(4, 2, 1, 0, 3, 0x47), FmsubS),
            (r4(4, 2, 1, 0, 3, 0x4b), FnmsubS),
            (r4(4, 2, 1, 0, 3, 0x4f), FnmaddS),
            (fop(0x00, 2, 1, 7, 3), FaddS),
            (fop(0x04, 2, 1, 7, 3), FsubS),
            (fop(0x08, 2, 1, 7, 3), FmulS),
            (fop(0x0c, 2, 1, 7, 3), FdivS),
            (fop(0x2c, 0, 1, 7, 3), FsqrtS),
            (fop(0x10, 2, 1, 0, 3), FsgnjS),
            (fop(0x10, 2, 1, 1, 3), FsgnjnS),
            (fop(0x10, 2, 1, 2, 3), FsgnjxS),
            (fop(0x14, 2, 1, 0, 3), FminS),
            (fop(0x14, 2, 1, 1, 3), FmaxS),
            (fop(0x60, 0, 1, 1, 3), FcvtWS),
            (fop(0x60, 1, 1, 1, 3), FcvtWuS),
            (fop(0x70, 0, 1, 0, 3), FmvXW),
            (fop(0x50, 2, 1, 2, 3), FeqS),
            (fop(0x50, 2, 1, 1, 3), FltS),
            (fop(0x50, 2, 1, 0, 3), FleS),
            (fop(0x70, 0, 1, 1, 3), FclassS),
            (fop(0x68, 0, 1, 7, 3), FcvtSW),
            (fop(0x68, 1, 1, 7, 3), FcvtSWu),
            (fop(0x78, 0, 1, 0, 3), FmvWX),
        ];
        for (word, op) in cases {
            let inst = decode(word).unwrap_or_else(|e| panic!("{op:?}: {e}"));
            assert_eq!(inst.op, op, "{word:#010x}");
        }
        // The immediates come back sign-extended.
        assert_eq!(decode(b(-8, 2, 1, 0)).unwrap().imm, -8);
        assert_eq!(decode(j(-2048, 1)).unwrap().imm, -2048);
        assert_eq!(decode(s(-3, 2, 1, 2)).unwrap().imm, -3);
    }

    #[test]
    fn what_is_not_rv32imf_is_refused_with_its_word() {
        for (word, what) in [
            (0x0000_4501u32, "compressed"),      // c.li a0, 0
            (fop(0x01, 2, 1, 7, 3), "double"),   // fadd.d
            (0x0805_202f, "atomic"),             // amoswap.w
            (0x0005_3007, "D or Q"),             // fld
            (fop(0x00, 2, 1, 5, 3), "rounding"), // fadd.s with rm 5
            (r(0x20, 2, 1, 1, 3, 0x33), "reserved"),
        ] {
            let e = decode(word).unwrap_err();
            assert!(e.to_string().contains(&format!("{word:#010x}")), "{e}");
            assert!(e.why.contains(what), "{what}: {e}");
        }
    }

    #[test]
    fn x0_stays_zero_and_upper_immediates_load() {
        let mut t = with_x(&[(1, 5)]);
        run1(&mut t, &mut mem(), i(7, 1, 0, 0, 0x13)).unwrap(); // addi x0, x1, 7
        assert_eq!(t.x[0], 0);
        run1(&mut t, &mut mem(), 0x1234_50b7).unwrap(); // lui x1, 0x12345
        assert_eq!(t.x[1], 0x1234_5000);
        run1(&mut t, &mut mem(), 0xfff0_0097).unwrap(); // auipc x1, 0xfff00
        assert_eq!(t.x[1], 0xfff0_0100);
    }

    #[test]
    fn jumps_link_and_land() {
        let mut t = Thread::new(0x100);
        assert_eq!(run1(&mut t, &mut mem(), j(-0x40, 1)).unwrap(), Effect::Jump);
        assert_eq!((t.pc, t.x[1]), (0xc0, 0x104));
        // jalr clears bit 0 of the target.
        let mut t = with_x(&[(5, 0x201)]);
        run1(&mut t, &mut mem(), i(0x10, 5, 0, 1, 0x67)).unwrap();
        assert_eq!((t.pc, t.x[1]), (0x210, 0x104));
        // A return to EXIT_PC is the end of the thread.
        let mut t = with_x(&[(1, EXIT_PC)]);
        assert_eq!(
            run1(&mut t, &mut mem(), i(0, 1, 0, 0, 0x67)).unwrap(),
            Effect::Exit
        );
        // A misaligned target is a fault, not a wrong fetch.
        let mut t = with_x(&[(5, 0x202)]);
        let f = run1(&mut t, &mut mem(), i(0, 5, 0, 0, 0x67)).unwrap_err();
        assert!(
            f.why.contains("misaligned") && f.to_string().contains("0x100"),
            "{f}"
        );
    }

    #[test]
    fn branches_compare_signed_and_unsigned() {
        let neg = (-1i32) as u32;
        for (f3, a, bv, taken) in [
            (0, 3, 3, true),
            (1, 3, 3, false),
            (4, neg, 1, true),  // blt: -1 < 1
            (5, neg, 1, false), // bge
            (6, neg, 1, false), // bltu: 0xffffffff > 1
            (7, neg, 1, true),  // bgeu
        ] {
            let mut t = with_x(&[(1, a), (2, bv)]);
            let e = run1(&mut t, &mut mem(), b(-16, 2, 1, f3)).unwrap();
            assert_eq!(e, Effect::Branch { taken }, "funct3 {f3}");
            assert_eq!(t.pc, if taken { 0xf0 } else { 0x104 });
        }
    }

    #[test]
    fn loads_extend_and_stores_write_their_width() {
        let mut m = Bytes(vec![0; 64]);
        m.0[4..8].copy_from_slice(&[0x80, 0xff, 0x34, 0x12]);
        let load = |f3, off: i32, m: &mut Bytes| {
            let mut t = with_x(&[(1, 0x1000)]);
            let e = run1(&mut t, m, i(off, 1, f3, 3, 0x03)).unwrap();
            assert_eq!(
                e,
                Effect::Load {
                    addr: 0x1000 + off as u32,
                    size: [1, 2, 4, 0, 1, 2][f3 as usize]
                }
            );
            t.x[3]
        };
        assert_eq!(load(0, 4, &mut m), 0xffff_ff80); // lb
        assert_eq!(load(4, 4, &mut m), 0x80); // lbu
        assert_eq!(load(1, 4, &mut m), 0xffff_ff80); // lh
        assert_eq!(load(5, 4, &mut m), 0xff80); // lhu
        assert_eq!(load(2, 4, &mut m), 0x1234_ff80); // lw
        let mut t = with_x(&[(1, 0x1000), (2, 0xaabb_ccdd)]);
        run1(&mut t, &mut m, s(9, 2, 1, 0)).unwrap(); // sb
        run1(&mut t, &mut m, s(10, 2, 1, 1)).unwrap(); // sh
        run1(&mut t, &mut m, s(12, 2, 1, 2)).unwrap(); // sw
        assert_eq!(&m.0[8..16], &[0, 0xdd, 0xdd, 0xcc, 0xdd, 0xcc, 0xbb, 0xaa]);
        // Misaligned and outside accesses are faults that name the address.
        let mut t = with_x(&[(1, 0x1000)]);
        let f = run1(&mut t, &mut m, i(2, 1, 2, 3, 0x03)).unwrap_err();
        assert!(
            f.why.contains("misaligned") && f.why.contains("0x1002"),
            "{f}"
        );
        let f = run1(&mut t, &mut m, s(0x100, 0, 1, 2)).unwrap_err();
        assert!(f.why.contains("outside") && f.why.contains("0x1100"), "{f}");
    }

    #[test]
    fn integer_operations_follow_the_spec() {
        let neg = |v: i32| v as u32;
        assert_eq!(alu(0, 0, 7, neg(-9)), neg(-2)); // add
        assert_eq!(alu(0x20, 0, 7, 9), neg(-2)); // sub
        assert_eq!(alu(0, 1, 1, 33), 2); // sll uses the low 5 bits
        assert_eq!(alu(0, 5, 0x8000_0000, 35), 0x1000_0000); // srl
        assert_eq!(alu(0x20, 5, 0x8000_0000, 35), 0xf000_0000); // sra
        assert_eq!(alu(0, 2, neg(-1), 0), 1); // slt
        assert_eq!(alu(0, 3, neg(-1), 0), 0); // sltu
        assert_eq!(
            (alu(0, 4, 6, 3), alu(0, 6, 6, 3), alu(0, 7, 6, 3)),
            (5, 7, 2)
        );
        // Immediates are sign-extended, sltiu compares them unsigned.
        let mut t = with_x(&[(1, 5)]);
        run1(&mut t, &mut mem(), i(-1, 1, 3, 3, 0x13)).unwrap(); // sltiu x3, x1, -1
        assert_eq!(t.x[3], 1);
        run1(&mut t, &mut mem(), i(-1, 1, 2, 3, 0x13)).unwrap(); // slti x3, x1, -1
        assert_eq!(t.x[3], 0);
        run1(&mut t, &mut mem(), i(0x405, 1, 5, 3, 0x13)).unwrap(); // srai by 5
        assert_eq!(t.x[3], 0);
    }

    #[test]
    fn multiply_and_divide_follow_the_spec() {
        let neg = |v: i32| v as u32;
        assert_eq!(alu(1, 0, neg(-3), 7), neg(-21)); // mul
        assert_eq!(alu(1, 1, neg(-2), 3), neg(-1)); // mulh: -6 >> 32
        assert_eq!(alu(1, 2, neg(-2), 3), neg(-1)); // mulhsu: -2 * 3
        assert_eq!(alu(1, 2, 3, neg(-2)), 2); // mulhsu: 3 * 0xfffffffe
        assert_eq!(alu(1, 3, neg(-2), 3), 2); // mulhu
        assert_eq!(alu(1, 1, 0x8000_0000, 0x8000_0000), 0x4000_0000);
        assert_eq!(alu(1, 4, neg(-7), 2), neg(-3)); // div truncates
        assert_eq!(alu(1, 6, neg(-7), 2), neg(-1)); // rem takes the dividend's sign
                                                    // Division by zero: quotient all ones, remainder the dividend.
        assert_eq!(alu(1, 4, 5, 0), u32::MAX);
        assert_eq!(alu(1, 5, 5, 0), u32::MAX);
        assert_eq!(alu(1, 6, neg(-5), 0), neg(-5));
        assert_eq!(alu(1, 7, 5, 0), 5);
        // Signed overflow: -2^31 / -1.
        assert_eq!(alu(1, 4, 0x8000_0000, neg(-1)), 0x8000_0000);
        assert_eq!(alu(1, 6, 0x8000_0000, neg(-1)), 0);
        assert_eq!(alu(1, 5, neg(-7), 2), 0x7fff_fffc);
        assert_eq!(alu(1, 7, neg(-7), 2), 1);
    }

    #[test]
    fn weft_csrs_give_the_coordinates_and_the_barrier() {
        for (csr, want) in [
            (CSR_TID, 37),
            (CSR_NTID, 1024),
            (CSR_CTAID, 1),
            (CSR_CTA_SIZE, 32),
        ] {
            let mut t = Thread::new(0x100);
            assert_eq!(
                run1(&mut t, &mut mem(), i(csr as i32, 0, 2, 3, 0x73)).unwrap(),
                Effect::Next
            );
            assert_eq!(t.x[3], want);
        }
        let mut t = Thread::new(0x100);
        assert_eq!(
            run1(&mut t, &mut mem(), i(0x8c0, 0, 1, 0, 0x73)).unwrap(),
            Effect::Barrier
        );
        assert_eq!(t.pc, 0x104);
        let f = run1(&mut t, &mut mem(), i(0xcc0, 1, 1, 0, 0x73)).unwrap_err();
        assert!(f.why.contains("read-only"), "{f}");
        let f = run1(&mut t, &mut mem(), i(0x300, 0, 2, 3, 0x73)).unwrap_err();
        assert!(f.why.contains("0x300"), "{f}");
        let f = run1(&mut t, &mut mem(), 0x0000_0073).unwrap_err();
        assert!(f.to_string().contains("ecall"), "{f}");
    }

    #[test]
    fn float_csrs_read_and_write() {
        let mut t = with_x(&[(1, 0xff)]);
        run1(&mut t, &mut mem(), i(CSR_FCSR as i32, 1, 1, 3, 0x73)).unwrap(); // csrrw
        assert_eq!((t.fcsr, t.x[3]), (0xff, 0));
        run1(&mut t, &mut mem(), i(CSR_FRM as i32, 1, 7, 3, 0x73)).unwrap(); // csrrci frm, 1
        assert_eq!((t.x[3], t.fcsr >> 5), (7, 6));
        run1(&mut t, &mut mem(), i(CSR_FFLAGS as i32, 0, 1, 3, 0x73)).unwrap(); // fsflags x0
        assert_eq!((t.x[3], t.fcsr), (0x1f, 0xc0));
    }

    #[test]
    fn float_arithmetic_rounds_in_every_mode() {
        // 1 + 2^-24 is halfway between 1 and 1 + 2^-23: a tie.
        let tiny = f32::from_bits(0x3380_0000); // 2^-24
        let up = f32::from_bits(0x3f80_0001); // 1 + 2^-23
        for (rm, want) in [(0, 1.0f32), (1, 1.0), (2, 1.0), (3, up), (4, up)] {
            let (bits, flags) = fbin(0x00, rm, 1.0, tiny);
            assert_eq!(f32::from_bits(bits), want, "fadd rm {rm}");
            assert_eq!(flags, NX);
        }
        // -(1 + 2^-24): RDN and RMM go away from zero, RUP and RTZ toward it.
        for (rm, want) in [(0, -1.0f32), (1, -1.0), (2, -up), (3, -1.0), (4, -up)] {
            assert_eq!(
                f32::from_bits(fbin(0x04, rm, -1.0, tiny).0),
                want,
                "fsub rm {rm}"
            );
        }
        // 3 * (1/3 rounded) is not 1: the error decides the directed modes.
        let third = 1.0f32 / 3.0;
        let exact = 3.0 * f64::from(third);
        for rm in 0..5 {
            let (bits, flags) = fbin(0x08, rm, 3.0, third);
            let r = f64::from(f32::from_bits(bits));
            match rm {
                2 => assert!(r <= exact),
                3 => assert!(r >= exact),
                1 => assert!(r.abs() <= exact.abs()),
                _ => assert!((r - exact).abs() <= 2f64.powi(-24)),
            }
            assert_eq!(flags, NX);
        }
        // 1 / 3 rounds up under RNE (0x3eaaaaab > 1/3): RUP agrees, RDN and RTZ take the
        // value below.
        assert_eq!(third.to_bits(), 0x3eaa_aaab);
        for (rm, want) in [
            (0, 0x3eaa_aaab),
            (1, 0x3eaa_aaaa),
            (2, 0x3eaa_aaaa),
            (3, 0x3eaa_aaab),
        ] {
            assert_eq!(fbin(0x0c, rm, 1.0, 3.0), (want, NX), "fdiv rm {rm}");
        }
        // Exact results raise nothing; exact cancellation is +0, or -0 rounding down.
        assert_eq!(fbin(0x00, 0, 1.5, 2.25), (fl(3.75), 0));
        assert_eq!(fbin(0x04, 0, 1.5, 1.5), (fl(0.0), 0));
        assert_eq!(fbin(0x04, 2, 1.5, 1.5), (fl(-0.0), 0));
        // Overflow: RNE to infinity, RTZ to the largest finite value.
        assert_eq!(fbin(0x08, 0, f32::MAX, 2.0), (fl(f32::INFINITY), OF | NX));
        assert_eq!(fbin(0x08, 1, f32::MAX, 2.0), (fl(f32::MAX), OF | NX));
        // Underflow: a tiny inexact product.
        assert_eq!(
            fbin(0x08, 0, f32::MIN_POSITIVE, 0.5).1,
            0,
            "exact subnormal"
        );
        assert_eq!(fbin(0x08, 0, f32::from_bits(1), 0.5), (fl(0.0), UF | NX));
    }

    #[test]
    fn float_invalid_and_divide_by_zero() {
        let nan = 0x7fc0_0000;
        assert_eq!(fbin(0x0c, 0, 1.0, 0.0), (fl(f32::INFINITY), DZ));
        assert_eq!(fbin(0x0c, 0, 0.0, 0.0), (nan, NV));
        assert_eq!(fbin(0x04, 0, f32::INFINITY, f32::INFINITY), (nan, NV));
        assert_eq!(fbin(0x08, 0, f32::INFINITY, 0.0), (nan, NV));
        // sqrt of a negative number, and of -0 (which is -0).
        let mut t = Thread::new(0x100);
        t.f[1] = fl(-4.0);
        run1(&mut t, &mut mem(), fop(0x2c, 0, 1, 0, 3)).unwrap();
        assert_eq!((t.f[3], t.fcsr), (nan, NV));
        t.f[1] = fl(-0.0);
        t.fcsr = 0;
        run1(&mut t, &mut mem(), fop(0x2c, 0, 1, 0, 3)).unwrap();
        assert_eq!((t.f[3], t.fcsr), (fl(-0.0), 0));
        // A NaN result is canonical whatever the operands' payloads; a quiet NaN operand
        // raises nothing, a signaling one raises NV.
        assert_eq!(fbin_bits(0x00, 0, 0xffc1_2345, fl(1.0)), (nan, 0));
        assert_eq!(fbin_bits(0x00, 0, 0x7f80_0001, fl(1.0)), (nan, NV));
    }

    #[test]
    fn fused_multiply_add_rounds_once() {
        // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: the product alone rounds the 2^-24 away.
        let a = 1.0 + 2f32.powi(-12);
        let c = -(1.0 + 2f32.powi(-11));
        let run = |opc: u32, rm: u32| {
            let mut t = Thread::new(0x100);
            t.f[1] = fl(a);
            t.f[2] = fl(a);
            t.f[4] = fl(c);
            let r = run1(&mut t, &mut mem(), r4(4, 2, 1, rm, 3, opc));
            r.map(|_| (f32::from_bits(t.f[3]), t.fcsr))
        };
        assert_eq!(run(0x43, 0).unwrap(), (2f32.powi(-24), 0)); // fmadd: exact
        assert_eq!(a * a + c, 0.0, "unfused would give 0");
        // fmsub: a*a - c = 2 + 2^-10 + 2^-24, a quarter ulp above 2 + 2^-10.
        assert_eq!(run(0x47, 0).unwrap(), (2.0 + 2f32.powi(-10), NX));
        // fnmsub: -(a*a) + c; fnmadd: -(a*a) - c.
        assert_eq!(run(0x4b, 0).unwrap(), (-(2.0 + 2f32.powi(-10)), NX));
        assert_eq!(run(0x4f, 0).unwrap(), (-(2f32.powi(-24)), 0));
        let f = run(0x43, 1).unwrap_err();
        assert!(f.why.contains("Rtz"), "{f}");
        // inf * 0 + NaN still raises NV.
        let mut t = Thread::new(0x100);
        t.f[1] = fl(f32::INFINITY);
        t.f[2] = fl(0.0);
        t.f[4] = 0x7fc0_0000;
        run1(&mut t, &mut mem(), r4(4, 2, 1, 0, 3, 0x43)).unwrap();
        assert_eq!((t.f[3], t.fcsr), (0x7fc0_0000, NV));
    }

    #[test]
    fn min_max_sign_injection_and_moves() {
        let nan = 0x7fc0_0000;
        assert_eq!(fbin(0x14, 0, -0.0, 0.0).0, fl(-0.0)); // fmin orders -0 below +0
        assert_eq!(fbin(0x14, 1, -0.0, 0.0).0, fl(0.0));
        assert_eq!(fbin_bits(0x14, 0, nan, fl(2.0)), (fl(2.0), 0));
        assert_eq!(fbin_bits(0x14, 1, fl(2.0), 0x7f80_0001), (fl(2.0), NV));
        assert_eq!(fbin_bits(0x14, 0, nan, 0xffc0_0001), (nan, 0));
        // Sign injection works on raw bits: a NaN payload survives.
        assert_eq!(fbin_bits(0x10, 0, 0x7fc1_2345, fl(-1.0)).0, 0xffc1_2345);
        assert_eq!(fbin_bits(0x10, 1, fl(3.0), fl(-1.0)).0, fl(3.0));
        assert_eq!(fbin_bits(0x10, 2, fl(-3.0), fl(-1.0)).0, fl(3.0));
        let mut t = with_x(&[(1, 0xffc1_2345)]);
        run1(&mut t, &mut mem(), fop(0x78, 0, 1, 0, 2)).unwrap(); // fmv.w.x
        run1(&mut t, &mut mem(), fop(0x70, 0, 2, 0, 3)).unwrap(); // fmv.x.w
        assert_eq!((t.f[2], t.x[3]), (0xffc1_2345, 0xffc1_2345));
        // flw / fsw move raw bits too.
        let mut m = Bytes(vec![0; 64]);
        let mut t = with_x(&[(1, 0x1000)]);
        t.f[2] = 0x7f80_0001;
        run1(&mut t, &mut m, s(8, 2, 1, 2) & !0x7f | 0x27).unwrap();
        run1(&mut t, &mut m, i(8, 1, 2, 5, 0x07)).unwrap();
        assert_eq!(t.f[5], 0x7f80_0001);
    }

    #[test]
    fn comparisons_and_classes() {
        let cmp = |f3, a: u32, bv: u32| {
            let mut t = Thread::new(0x100);
            t.f[1] = a;
            t.f[2] = bv;
            run1(&mut t, &mut mem(), fop(0x50, 2, 1, f3, 3)).unwrap();
            (t.x[3], t.fcsr)
        };
        let (nan, snan) = (0x7fc0_0000, 0x7f80_0001);
        assert_eq!(cmp(2, fl(-0.0), fl(0.0)), (1, 0)); // feq
        assert_eq!(cmp(2, nan, nan), (0, 0)); // feq is quiet
        assert_eq!(cmp(2, snan, nan), (0, NV));
        assert_eq!(cmp(1, fl(1.0), fl(2.0)), (1, 0)); // flt
        assert_eq!(cmp(1, nan, fl(2.0)), (0, NV)); // flt signals on any NaN
        assert_eq!(cmp(0, fl(2.0), fl(2.0)), (1, 0)); // fle
        let classes = [
            (fl(f32::NEG_INFINITY), 0),
            (fl(-1.0), 1),
            (0x8000_0001, 2),
            (fl(-0.0), 3),
            (fl(0.0), 4),
            (0x0000_0001, 5),
            (fl(1.0), 6),
            (fl(f32::INFINITY), 7),
            (snan, 8),
            (nan, 9),
        ];
        for (bits, class) in classes {
            let mut t = Thread::new(0x100);
            t.f[1] = bits;
            run1(&mut t, &mut mem(), fop(0x70, 0, 1, 1, 3)).unwrap();
            assert_eq!(t.x[3], 1 << class, "{bits:#x}");
        }
    }

    #[test]
    fn conversions_saturate_and_round_in_every_mode() {
        let to = |signed: bool, rm: u32, v: f32| {
            let mut t = Thread::new(0x100);
            t.f[1] = fl(v);
            run1(&mut t, &mut mem(), fop(0x60, u32::from(!signed), 1, rm, 3)).unwrap();
            (t.x[3] as i32, t.fcsr)
        };
        // 2.5 and -2.5 under RNE, RTZ, RDN, RUP, RMM.
        for (v, want) in [(2.5f32, [2, 2, 2, 3, 3]), (-2.5, [-2, -2, -3, -2, -3])] {
            for rm in 0..5 {
                assert_eq!(to(true, rm, v), (want[rm as usize], NX), "{v} rm {rm}");
            }
        }
        assert_eq!(to(true, 1, 7.0), (7, 0));
        // Saturation with NV: NaN and +inf to the largest, -inf to the smallest.
        assert_eq!(to(true, 1, f32::NAN), (i32::MAX, NV));
        assert_eq!(to(true, 1, f32::INFINITY), (i32::MAX, NV));
        assert_eq!(to(true, 1, f32::NEG_INFINITY), (i32::MIN, NV));
        assert_eq!(to(true, 1, 3e9), (i32::MAX, NV));
        assert_eq!(to(false, 1, 3e9), (3_000_000_000u32 as i32, 0));
        assert_eq!(to(false, 1, f32::NAN), (-1, NV));
        assert_eq!(to(false, 1, -1.0), (0, NV));
        // -0.3 truncates to 0, representable: inexact only; rounded down it is -1.
        assert_eq!(to(false, 1, -0.3), (0, NX));
        assert_eq!(to(false, 2, -0.3), (0, NV));
        // Integer to float: 2^24 + 1 is not representable.
        let from = |unsigned: bool, rm: u32, v: u32| {
            let mut t = with_x(&[(1, v)]);
            run1(&mut t, &mut mem(), fop(0x68, u32::from(unsigned), 1, rm, 3)).unwrap();
            (f32::from_bits(t.f[3]), t.fcsr)
        };
        assert_eq!(from(false, 0, 16_777_217), (16_777_216.0, NX));
        assert_eq!(from(false, 3, 16_777_217), (16_777_218.0, NX));
        assert_eq!(from(false, 0, (-5i32) as u32), (-5.0, 0));
        assert_eq!(from(true, 0, u32::MAX), (4_294_967_296.0, NX));
        assert_eq!(from(true, 1, u32::MAX), (4_294_967_040.0, NX));
        // A dynamic rounding mode reads frm; a reserved one in frm is a fault.
        let mut t = Thread::new(0x100);
        t.f[1] = fl(2.5);
        t.fcsr = 3 << 5; // frm = RUP
        run1(&mut t, &mut mem(), fop(0x60, 0, 1, 7, 3)).unwrap();
        assert_eq!(t.x[3], 3);
        t.fcsr = 5 << 5;
        let f = run1(&mut t, &mut mem(), fop(0x60, 0, 1, 7, 3)).unwrap_err();
        assert!(f.why.contains("reserved"), "{f}");
    }
}
