//! Compute unit model (SPEC §6; `vgiw-control-flow-coalescing.txt` §3.5 "Compute
//! units"): a token buffer and a 3-stage pipeline executing one configured opcode,
//! optionally with a configured immediate in place of the opcode's last operand.
//! Cycle semantics: `outputs()` is what the unit presents this cycle; `clock()`
//! applies a rising edge with this cycle's inputs.
//!
//! Float semantics (binary32), defined as Rust's `f32` arithmetic (round to nearest
//! even, IEEE infinities) with, on top: subnormal inputs read as zero of the same
//! sign; a subnormal result is flushed to zero of the same sign (after IEEE rounding,
//! so a result that rounds up to the smallest normal stays normal); every NaN result
//! is the canonical quiet NaN `0x7fc00000`.
use crate::cgrf::token_buffer::{Fired, OperandToken, TokenBuffer, TokenBufferIn};

/// The configured operation (`cfg_opcode`, 4 bits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Opcode {
    #[default]
    Add = 0,
    Sub = 1,
    /// Low 32 bits of the product.
    Mul = 2,
    And = 3,
    Or = 4,
    Xor = 5,
    /// `a << (b mod 32)`.
    Shl = 6,
    /// Logical `a >> (b mod 32)`.
    Shr = 7,
    /// Arithmetic `a >> (b mod 32)`.
    Sra = 8,
    /// `a == b` as 0/1.
    Eq = 9,
    Ne = 10,
    /// Signed `a < b`.
    Lt = 11,
    /// Unsigned `a < b`.
    Ltu = 12,
    /// `a != 0 ? b : c` (three operands).
    Select = 13,
    /// binary32 `a + b`.
    FAdd = 14,
    /// binary32 `a * b`.
    FMul = 15,
}

impl Opcode {
    pub const ALL: [Opcode; 16] = [
        Opcode::Add,
        Opcode::Sub,
        Opcode::Mul,
        Opcode::And,
        Opcode::Or,
        Opcode::Xor,
        Opcode::Shl,
        Opcode::Shr,
        Opcode::Sra,
        Opcode::Eq,
        Opcode::Ne,
        Opcode::Lt,
        Opcode::Ltu,
        Opcode::Select,
        Opcode::FAdd,
        Opcode::FMul,
    ];

    pub fn from_code(code: u8) -> Opcode {
        Self::ALL[usize::from(code & 15)]
    }

    /// Operands an entry needs.
    pub fn operands(self) -> u8 {
        if self == Opcode::Select {
            3
        } else {
            2
        }
    }
}

/// A configuration write (`cfg_opcode`, `cfg_imm_en`, `cfg_imm`). `Default` is the
/// reset state: `add`, no immediate, immediate 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Config {
    pub opcode: Opcode,
    /// The last operand (`b`; `c` for `select`) is `imm` instead of a link's token.
    pub imm_en: bool,
    /// Held even when disabled (as the register is), used only with `imm_en`.
    pub imm: u32,
}

impl Config {
    /// `opcode` on linked operands only.
    pub fn op(opcode: Opcode) -> Self {
        Self {
            opcode,
            imm_en: false,
            imm: 0,
        }
    }

    /// `opcode` with its last operand the constant `imm`.
    pub fn with_imm(opcode: Opcode, imm: u32) -> Self {
        Self {
            opcode,
            imm_en: true,
            imm,
        }
    }

    /// The operand slot the immediate replaces (`None` when disabled).
    pub fn imm_slot(self) -> Option<usize> {
        self.imm_en.then(|| usize::from(self.opcode.operands()) - 1)
    }

    /// Operands that arrive on links (the token buffer's count): slots `0..count`.
    pub fn linked_operands(self) -> u8 {
        self.opcode.operands() - u8::from(self.imm_en)
    }

    /// The result for the linked operands `[a, b, c]` (slots beyond the linked count
    /// are ignored).
    pub fn execute(self, linked: [u32; 3]) -> u32 {
        let mut ops = [0; 3];
        let n = usize::from(self.linked_operands());
        ops[..n].copy_from_slice(&linked[..n]);
        if let Some(slot) = self.imm_slot() {
            ops[slot] = self.imm;
        }
        execute(self.opcode, ops[0], ops[1], ops[2])
    }
}

/// The canonical quiet NaN every NaN result becomes.
pub const CANONICAL_NAN: u32 = 0x7fc0_0000;

/// A binary32 input as the unit reads it: subnormals are zeros of the same sign.
pub fn flush_input(x: u32) -> f32 {
    if x & 0x7f80_0000 == 0 {
        f32::from_bits(x & 0x8000_0000)
    } else {
        f32::from_bits(x)
    }
}

/// A binary32 result as the unit writes it: subnormals flushed (sign kept), NaN canonical.
pub fn flush_result(r: f32) -> u32 {
    if r.is_nan() {
        CANONICAL_NAN
    } else if r.is_subnormal() {
        r.to_bits() & 0x8000_0000
    } else {
        r.to_bits()
    }
}

pub fn float_add(a: u32, b: u32) -> u32 {
    flush_result(flush_input(a) + flush_input(b))
}

pub fn float_mul(a: u32, b: u32) -> u32 {
    flush_result(flush_input(a) * flush_input(b))
}

/// The result of `op` on operands `a`, `b`, `c`.
pub fn execute(op: Opcode, a: u32, b: u32, c: u32) -> u32 {
    let s = b & 31;
    match op {
        Opcode::Add => a.wrapping_add(b),
        Opcode::Sub => a.wrapping_sub(b),
        Opcode::Mul => a.wrapping_mul(b),
        Opcode::And => a & b,
        Opcode::Or => a | b,
        Opcode::Xor => a ^ b,
        Opcode::Shl => a << s,
        Opcode::Shr => a >> s,
        Opcode::Sra => ((a as i32) >> s) as u32,
        Opcode::Eq => u32::from(a == b),
        Opcode::Ne => u32::from(a != b),
        Opcode::Lt => u32::from((a as i32) < (b as i32)),
        Opcode::Ltu => u32::from(a < b),
        Opcode::Select => {
            if a != 0 {
                b
            } else {
                c
            }
        }
        Opcode::FAdd => float_add(a, b),
        Opcode::FMul => float_mul(a, b),
    }
}

/// Pipeline depth: an entry fired on edge `t` is presented from cycle `t + LATENCY`.
pub const LATENCY: usize = 3;

/// A result token.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResultToken {
    pub vc: usize,
    pub tid: u16,
    pub data: u32,
}

/// What the unit presents in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComputeUnitOut {
    pub link_ready: [bool; 3],
    pub out: Option<ResultToken>,
    pub opcode: Opcode,
    pub busy: bool,
    pub tid_error: bool,
}

/// Inputs of one edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ComputeUnitIn {
    pub reset: bool,
    /// A configuration write (`cfg_valid` with `cfg_opcode`, `cfg_imm_en`, `cfg_imm`).
    pub cfg: Option<Config>,
    pub links: [Option<OperandToken>; 3],
    pub out_ready: bool,
}

#[derive(Clone, Debug)]
pub struct ComputeUnit {
    buffer: TokenBuffer,
    config: Config,
    /// Stages 1..=LATENCY; the last one is presented.
    stages: [Option<ResultToken>; LATENCY],
}

impl ComputeUnit {
    /// After reset the opcode is `add` with one operand (`a + 0`) and no immediate
    /// until configured.
    pub fn new(vcs: usize) -> Self {
        Self {
            buffer: TokenBuffer::new(vcs),
            config: Config::default(),
            stages: [None; LATENCY],
        }
    }

    pub fn buffer(&self) -> &TokenBuffer {
        &self.buffer
    }

    /// The configuration in effect (applied at the next fire).
    pub fn config(&self) -> Config {
        self.config
    }

    fn advance(&self, out_ready: bool) -> bool {
        self.stages[LATENCY - 1].is_none() || out_ready
    }

    pub fn outputs(&self, link_vcs: [usize; 3]) -> ComputeUnitOut {
        let b = self.buffer.outputs(link_vcs);
        ComputeUnitOut {
            link_ready: b.link_ready,
            out: self.stages[LATENCY - 1],
            opcode: self.config.opcode,
            busy: b.busy || self.stages.iter().any(Option::is_some),
            tid_error: b.tid_error,
        }
    }

    /// Rising edge. Returns the entry that fired into the pipeline, if any.
    pub fn clock(&mut self, i: &ComputeUnitIn) -> Option<Fired> {
        let advance = self.advance(i.out_ready);
        let fired = self.buffer.clock(&TokenBufferIn {
            reset: i.reset,
            cfg: i.cfg.map(Config::linked_operands),
            links: i.links,
            out_ready: advance,
        });
        if i.reset {
            self.stages = [None; LATENCY];
            self.config = Config::default();
            return None;
        }
        // The configuration at the fire goes with the entry (a later write does not
        // change it).
        if advance {
            self.stages.rotate_right(1);
            self.stages[0] = fired.map(|f| ResultToken {
                vc: f.vc,
                tid: f.tid,
                data: self.config.execute(f.operands),
            });
        }
        if let Some(config) = i.cfg {
            self.config = config;
        }
        fired
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_semantics_on_top_of_f32() {
        let min_normal = f32::MIN_POSITIVE.to_bits();
        // Subnormal input reads as zero, sign kept.
        assert_eq!(float_add(0x8000_0001, 0x8000_0000), 0x8000_0000);
        assert_eq!(float_mul(0x0000_0001, 0x3f80_0000), 0);
        // Subnormal result flushed, sign kept.
        assert_eq!(float_mul(min_normal, 0xbf00_0000), 0x8000_0000);
        // inf * 0 and inf - inf are the canonical NaN.
        assert_eq!(float_mul(0x7f80_0000, 0), CANONICAL_NAN);
        assert_eq!(float_add(0x7f80_0000, 0xff80_0000), CANONICAL_NAN);
        assert_eq!(float_add(0xffc0_1234, 0), CANONICAL_NAN);
        // Exact cancellation is +0.
        assert_eq!(float_add(0x3f80_0000, 0xbf80_0000), 0);
        // Overflow to infinity.
        assert_eq!(float_add(0x7f7f_ffff, 0x7f7f_ffff), 0x7f80_0000);
        // 1.5 * 2^-126 * (2/3)(1 + tiny) rounds up to the smallest normal: kept.
        let just_below = f32::from_bits(min_normal) * (1.0 - f32::EPSILON / 4.0);
        assert!(just_below.is_subnormal() || just_below == f32::MIN_POSITIVE);
    }

    #[test]
    fn integer_ops() {
        assert_eq!(execute(Opcode::Sub, 1, 2, 0), u32::MAX);
        assert_eq!(execute(Opcode::Mul, 0x1_0001, 0x1_0001, 0), 0x2_0001);
        assert_eq!(execute(Opcode::Sra, 0x8000_0000, 33, 0), 0xc000_0000);
        assert_eq!(execute(Opcode::Lt, u32::MAX, 0, 0), 1);
        assert_eq!(execute(Opcode::Ltu, u32::MAX, 0, 0), 0);
        assert_eq!(execute(Opcode::Select, 0, 5, 6), 6);
    }

    #[test]
    fn three_stage_pipeline() {
        let mut cu = ComputeUnit::new(2);
        cu.clock(&ComputeUnitIn {
            cfg: Some(Config::op(Opcode::Mul)),
            ..Default::default()
        });
        let t = |vc, data| Some(OperandToken { vc, tid: 7, data });
        let go = ComputeUnitIn {
            out_ready: true,
            ..Default::default()
        };
        cu.clock(&ComputeUnitIn {
            links: [t(1, 6), t(1, 7), None],
            ..go
        });
        for _ in 0..LATENCY {
            assert_eq!(cu.outputs([0; 3]).out, None);
            cu.clock(&go);
        }
        let out = cu.outputs([0; 3]).out.unwrap();
        assert_eq!((out.vc, out.tid, out.data), (1, 7, 42));
    }

    #[test]
    fn immediate_replaces_the_last_operand() {
        let sub = Config::with_imm(Opcode::Sub, 5);
        assert_eq!(sub.linked_operands(), 1);
        assert_eq!(sub.execute([12, 99, 99]), 7);
        let select = Config::with_imm(Opcode::Select, 9);
        assert_eq!(select.linked_operands(), 2);
        assert_eq!(select.execute([0, 4, 99]), 9);
        assert_eq!(select.execute([1, 4, 99]), 4);
        // disabled: the held immediate is ignored
        let plain = Config {
            imm: 77,
            ..Config::op(Opcode::Add)
        };
        assert_eq!(plain.execute([1, 2, 3]), 3);
    }

    /// `a * b + k` through two models, the second with no `b` link.
    #[test]
    fn multiply_add_with_a_constant() {
        let mut mul = ComputeUnit::new(2);
        let mut add = ComputeUnit::new(2);
        mul.clock(&ComputeUnitIn {
            cfg: Some(Config::op(Opcode::Mul)),
            ..Default::default()
        });
        add.clock(&ComputeUnitIn {
            cfg: Some(Config::with_imm(Opcode::Add, 1000)),
            ..Default::default()
        });
        let t = |data| {
            Some(OperandToken {
                vc: 1,
                tid: 3,
                data,
            })
        };
        let go = ComputeUnitIn {
            out_ready: true,
            ..Default::default()
        };
        mul.clock(&ComputeUnitIn {
            links: [t(6), t(7), None],
            ..go
        });
        let mut product = None;
        for _ in 0..10 {
            product = product.or(mul.outputs([0; 3]).out);
            mul.clock(&go);
        }
        let p = product.expect("a product");
        assert!(
            !add.outputs([1; 3]).link_ready[1],
            "the b link never accepts"
        );
        add.clock(&ComputeUnitIn {
            links: [t(p.data), None, None],
            ..go
        });
        let mut sum = None;
        for _ in 0..10 {
            sum = sum.or(add.outputs([0; 3]).out);
            add.clock(&go);
        }
        assert_eq!(sum.map(|r| r.data), Some(6 * 7 + 1000));
    }
}
