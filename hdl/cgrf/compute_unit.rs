//! Compute unit (`vgiw-control-flow-coalescing.txt` §3.5 "Compute units"; SPEC §6): a
//! token buffer and a merged ALU/FPU pipeline executing one configured opcode on the
//! fired entry's operands, one issue per cycle, fixed latency for every opcode. An
//! optional configured immediate stands in for the opcode's last operand
//! (`c = a * b + k` needs no unit producing `k`).
//!
//! ```text
//!  links a b c ─> token_buffer ──fire──> S1 [op a b c] ─> IntAlu ────────────────┐
//!                 (VCS entries)  imm ─┘     │   Multiplier (mul, fmul sigs) ──┐   │
//!                                           │   FloatAlign: unpack, swap,     ┴─> S2 [int | sign exp mant special]
//!                                           │   align, add / product exponent      │ FloatRound: leading zeros,
//!                                           │                                      │ normalize, round to nearest
//!                                           │                                      │ even, pack
//!                                           └────── vc, tid ride along ──────────> S3 [result] ──> out
//! ```
//! The datapath is four sub-blocks, each with its own test: `int_alu`, `multiplier`,
//! `float_align` and `float_round` (in this folder); this file is the token buffer,
//! the configuration and the pipeline control.
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `cfg_valid`, `cfg_opcode` | in | 1, 4 | loads the opcode (table below), the immediate and the operand count (3 for `select`, else 2; one fewer with an immediate) |
//! | `cfg_imm_en`, `cfg_imm` | in | 1, 32 | loaded with `cfg_opcode`: the opcode's last operand (`b`; `c` for `select`) is `cfg_imm` and its link never accepts |
//! | `opcode` | out | 4 | the configured opcode |
//! | `a_*`, `b_*`, `c_*` | token links (`cgrf/mod.rs`) | | operands a, b, c |
//! | `out_valid`, `out_ready`, `out_vc`, `out_tid`, `out_data` | out link | 1, 1, VB, 16, 32 | result token (all 0 when `out_valid` is low) |
//! | `busy` | out | 1 | an operand or a result is held |
//! | `tid_error` | out | 1 | the token buffer's sticky error |
//!
//! Opcodes: 0 add, 1 sub, 2 mul (low 32 bits), 3 and, 4 or, 5 xor, 6 shl, 7 shr
//! (logical), 8 sra, 9 eq, 10 ne, 11 lt (signed), 12 ltu, 13 select (`a != 0 ? b : c`),
//! 14 fadd, 15 fmul. Shifts use `b mod 32`; compares produce 0 or 1. With the
//! immediate enabled, `b` (`c` for `select`) is the immediate: `add` gives `a + imm`,
//! `select` gives `a != 0 ? b : imm`.
//!
//! Float semantics (IEEE-754 binary32, the golden model is Rust's `f32` plus these):
//! round to nearest even; subnormal inputs read as zero of the same sign; a subnormal
//! result (after IEEE rounding) is flushed to zero of the same sign; every NaN result
//! is `0x7fc00000`; infinities per IEEE (`inf - inf`, `inf * 0` are NaN); exact
//! cancellation gives `+0`. The datapath rounds with an unbounded exponent, which
//! matches IEEE rounding above the normal range's floor; in the binade just below it
//! (biased exponent 0) a product rounds up to the smallest normal exactly when its
//! top 24 significand bits are all ones, which the pack stage checks.
//!
//! Timing: an entry fired on edge `t` is presented from cycle `t + 3` (3 stages for
//! every opcode); an operand accepted on edge `t` gives its result at `t + 4` at the
//! earliest. One issue per cycle. The pipeline moves as a whole: it advances when the
//! last stage is empty or taken (`out_ready`), else everything holds (no token is
//! dropped; bubbles are not squeezed out while stalled). The token buffer's
//! `out_ready` is that advance signal, so `out_ready` reaches the buffer's fire
//! combinationally.
//!
//! Storage: the token buffer (`VCS x 115 + VB + 3`) + configuration 4 + 1 + 32 (opcode,
//! imm_en, imm) + S1 `1 + VB + 16 + 4 + 96` + S2 `1 + VB + 16 + 4 + 32 + 1 + 32 + 64 +
//! 2` + S3 `1 + VB + 16 + 32` flip-flops: 2 214 for 16 channels (the `compute_unit`
//! preset), before Yosys trims constant bits.
//!
//! Choices where the paper is silent:
//! - One multiplier (a 32 x 32 shift-add array, 64-bit product) serves `mul` (low
//!   32 bits) and `fmul` (the 24 x 24 significand product): the paper's merged FP-ALU.
//! - The float adder aligns into a 64-bit frame (39 bits below the significand) with
//!   a sticky bit jammed into bit 0, so the rounding of S2 is exact.
//! - The opcode travels with each entry: reconfiguring does not change results in
//!   flight. The immediate does too, at no cost in flip-flops: it is muxed into the
//!   replaced operand's stage-1 register at the fire. Entries still waiting in the
//!   token buffer take the configuration current at their fire; the operand count is
//!   the token buffer's, written while the unit is idle (`busy` low), at kernel load.
//! - Reset clears the pipeline and leaves opcode `add` with one operand (`a + 0`, a
//!   move), imm_en 0, imm 0 until the first configuration write.
//! - The immediate replaces the last operand only (never `a`): non-commutative
//!   opcodes get `a - k`, `a << k`, `a < k`; a constant first operand is left to the
//!   fabric's routing.
use crate::cgrf::constant;
use crate::cgrf::float_align::FloatAlign;
use crate::cgrf::float_round::FloatRound;
use crate::cgrf::int_alu::IntAlu;
use crate::cgrf::multiplier::Multiplier;
use crate::cgrf::token_buffer::TokenBuffer;
use rust_hdl::prelude::*;

/// Compute unit over a token buffer of `VCS = 2^VB` channels.
#[derive(LogicBlock)]
pub struct ComputeUnit<const VCS: usize, const VB: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empties the buffer and the pipeline.
    pub reset: Signal<In, Bit>,
    // configuration port
    /// Loads `cfg_opcode` on this edge.
    pub cfg_valid: Signal<In, Bit>,
    /// The operation (see the table in the header).
    pub cfg_opcode: Signal<In, Bits<4>>,
    /// The opcode's last operand (`b`, or `c` for `select`) is `cfg_imm`, not a link.
    pub cfg_imm_en: Signal<In, Bit>,
    /// The immediate operand (loaded with `cfg_opcode`).
    pub cfg_imm: Signal<In, Bits<32>>,
    /// The configured operation.
    pub opcode: Signal<Out, Bits<4>>,
    // operand link a
    pub a_valid: Signal<In, Bit>,
    pub a_ready: Signal<Out, Bit>,
    pub a_vc: Signal<In, Bits<VB>>,
    pub a_tid: Signal<In, Bits<16>>,
    pub a_data: Signal<In, Bits<32>>,
    // operand link b
    pub b_valid: Signal<In, Bit>,
    pub b_ready: Signal<Out, Bit>,
    pub b_vc: Signal<In, Bits<VB>>,
    pub b_tid: Signal<In, Bits<16>>,
    pub b_data: Signal<In, Bits<32>>,
    // operand link c (select only)
    pub c_valid: Signal<In, Bit>,
    pub c_ready: Signal<Out, Bit>,
    pub c_vc: Signal<In, Bits<VB>>,
    pub c_tid: Signal<In, Bits<16>>,
    pub c_data: Signal<In, Bits<32>>,
    // result link
    /// A result is presented.
    pub out_valid: Signal<Out, Bit>,
    /// The consumer takes the result on this edge.
    pub out_ready: Signal<In, Bit>,
    /// The thread's channel.
    pub out_vc: Signal<Out, Bits<VB>>,
    /// The thread id.
    pub out_tid: Signal<Out, Bits<16>>,
    /// The result.
    pub out_data: Signal<Out, Bits<32>>,
    // status
    /// An operand or a result is held.
    pub busy: Signal<Out, Bit>,
    /// An operand arrived for an entry holding another thread (sticky).
    pub tid_error: Signal<Out, Bit>,
    buffer: TokenBuffer<VCS, VB>,
    /// Stage 1: the integer opcodes.
    alu: IntAlu,
    /// Stage 1: one multiplier for `mul` and the `fmul` significands.
    multiplier: Multiplier,
    /// Stage 1: float unpack, align and add (or the product's exponent).
    align: FloatAlign,
    /// Stage 2: normalise, round, pack.
    round: FloatRound,
    op: DFF<Bits<4>>,
    imm_en: DFF<Bit>,
    imm: DFF<Bits<32>>,
    // stage 1: the fired entry
    v1: DFF<Bit>,
    vc1: DFF<Bits<VB>>,
    tid1: DFF<Bits<16>>,
    op1: DFF<Bits<4>>,
    a1: DFF<Bits<32>>,
    b1: DFF<Bits<32>>,
    c1: DFF<Bits<32>>,
    // stage 2: integer result, or an unrounded float
    v2: DFF<Bit>,
    vc2: DFF<Bits<VB>>,
    tid2: DFF<Bits<16>>,
    op2: DFF<Bits<4>>,
    int2: DFF<Bits<32>>,
    sign2: DFF<Bit>,
    /// Biased exponent of a significand whose leading one is bit 63 (two's complement).
    exp2: DFF<Bits<32>>,
    mant2: DFF<Bits<64>>,
    class2: DFF<Bits<2>>,
    // stage 3: the result
    v3: DFF<Bit>,
    vc3: DFF<Bits<VB>>,
    tid3: DFF<Bits<16>>,
    data3: DFF<Bits<32>>,
    // configuration and issue
    cfg_select: Signal<Local, Bit>,
    cfg_operands: Signal<Local, Bits<2>>,
    select_now: Signal<Local, Bit>,
    issue_b: Signal<Local, Bits<32>>,
    issue_c: Signal<Local, Bits<32>>,
    advance: Signal<Local, Bit>,
    fire: Signal<Local, Bit>,
    float1: Signal<Local, Bit>,
    result: Signal<Local, Bits<32>>,
    // the result link, each port assigned once
    present_vc: Signal<Local, Bits<VB>>,
    present_tid: Signal<Local, Bits<16>>,
    present_data: Signal<Local, Bits<32>>,
    // constants
    op_add: Constant<Bits<4>>,
    op_select: Constant<Bits<4>>,
    op_fadd: Constant<Bits<4>>,
    op_fmul: Constant<Bits<4>>,
    zero_vc: Constant<Bits<VB>>,
    zero16: Constant<Bits<16>>,
    zero32: Constant<Bits<32>>,
    operands1: Constant<Bits<2>>,
    operands2: Constant<Bits<2>>,
    operands3: Constant<Bits<2>>,
}

/// Opcode numbers (`cfg_opcode`).
pub mod opcode {
    pub const ADD: usize = 0;
    pub const SUB: usize = 1;
    pub const MUL: usize = 2;
    pub const AND: usize = 3;
    pub const OR: usize = 4;
    pub const XOR: usize = 5;
    pub const SHL: usize = 6;
    pub const SHR: usize = 7;
    pub const SRA: usize = 8;
    pub const EQ: usize = 9;
    pub const NE: usize = 10;
    pub const LT: usize = 11;
    pub const LTU: usize = 12;
    pub const SELECT: usize = 13;
    pub const FADD: usize = 14;
    pub const FMUL: usize = 15;
}

impl<const VCS: usize, const VB: usize> Default for ComputeUnit<VCS, VB> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cfg_valid: Default::default(),
            cfg_opcode: Default::default(),
            cfg_imm_en: Default::default(),
            cfg_imm: Default::default(),
            opcode: Default::default(),
            a_valid: Default::default(),
            a_ready: Default::default(),
            a_vc: Default::default(),
            a_tid: Default::default(),
            a_data: Default::default(),
            b_valid: Default::default(),
            b_ready: Default::default(),
            b_vc: Default::default(),
            b_tid: Default::default(),
            b_data: Default::default(),
            c_valid: Default::default(),
            c_ready: Default::default(),
            c_vc: Default::default(),
            c_tid: Default::default(),
            c_data: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_vc: Default::default(),
            out_tid: Default::default(),
            out_data: Default::default(),
            busy: Default::default(),
            tid_error: Default::default(),
            // asserts the VCS / VB relation
            buffer: Default::default(),
            alu: Default::default(),
            multiplier: Default::default(),
            align: Default::default(),
            round: Default::default(),
            op: Default::default(),
            imm_en: Default::default(),
            imm: Default::default(),
            v1: Default::default(),
            vc1: Default::default(),
            tid1: Default::default(),
            op1: Default::default(),
            a1: Default::default(),
            b1: Default::default(),
            c1: Default::default(),
            v2: Default::default(),
            vc2: Default::default(),
            tid2: Default::default(),
            op2: Default::default(),
            int2: Default::default(),
            sign2: Default::default(),
            exp2: Default::default(),
            mant2: Default::default(),
            class2: Default::default(),
            v3: Default::default(),
            vc3: Default::default(),
            tid3: Default::default(),
            data3: Default::default(),
            cfg_select: Default::default(),
            cfg_operands: Default::default(),
            select_now: Default::default(),
            issue_b: Default::default(),
            issue_c: Default::default(),
            advance: Default::default(),
            fire: Default::default(),
            float1: Default::default(),
            result: Default::default(),
            present_vc: Default::default(),
            present_tid: Default::default(),
            present_data: Default::default(),
            op_add: constant(opcode::ADD as u64),
            op_select: constant(opcode::SELECT as u64),
            op_fadd: constant(opcode::FADD as u64),
            op_fmul: constant(opcode::FMUL as u64),
            zero_vc: Constant::new(Bits::default()),
            zero16: Constant::new(Bits::default()),
            zero32: Constant::new(Bits::default()),
            operands1: constant(1),
            operands2: constant(2),
            operands3: constant(3),
        }
    }
}

impl<const VCS: usize, const VB: usize> Logic for ComputeUnit<VCS, VB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, op, imm_en, imm, v1, vc1, tid1, op1, a1, b1, c1, v2, vc2, tid2, op2, int2,
            sign2, exp2, mant2, class2, v3, vc3, tid3, data3
        );
        self.buffer.clock.next = self.clock.val();
        self.buffer.reset.next = self.reset.val();
        // Configuration and the operand links go straight to the token buffer.
        // An immediate replaces the last operand: the buffer waits for one fewer.
        self.buffer.cfg_valid.next = self.cfg_valid.val();
        self.cfg_select.next = self.cfg_opcode.val() == self.op_select.val();
        self.cfg_operands.next = self.operands2.val();
        if self.cfg_select.val() & !self.cfg_imm_en.val() {
            self.cfg_operands.next = self.operands3.val();
        }
        if !self.cfg_select.val() & self.cfg_imm_en.val() {
            self.cfg_operands.next = self.operands1.val();
        }
        self.buffer.cfg_operands.next = self.cfg_operands.val();
        if self.cfg_valid.val() {
            self.op.d.next = self.cfg_opcode.val();
            self.imm_en.d.next = self.cfg_imm_en.val();
            self.imm.d.next = self.cfg_imm.val();
        }
        self.opcode.next = self.op.q.val();
        self.buffer.a_valid.next = self.a_valid.val();
        self.buffer.a_vc.next = self.a_vc.val();
        self.buffer.a_tid.next = self.a_tid.val();
        self.buffer.a_data.next = self.a_data.val();
        self.a_ready.next = self.buffer.a_ready.val();
        self.buffer.b_valid.next = self.b_valid.val();
        self.buffer.b_vc.next = self.b_vc.val();
        self.buffer.b_tid.next = self.b_tid.val();
        self.buffer.b_data.next = self.b_data.val();
        self.b_ready.next = self.buffer.b_ready.val();
        self.buffer.c_valid.next = self.c_valid.val();
        self.buffer.c_vc.next = self.c_vc.val();
        self.buffer.c_tid.next = self.c_tid.val();
        self.buffer.c_data.next = self.c_data.val();
        self.c_ready.next = self.buffer.c_ready.val();
        self.tid_error.next = self.buffer.tid_error.val();
        self.busy.next =
            self.buffer.busy.val() | self.v1.q.val() | self.v2.q.val() | self.v3.q.val();

        // The pipeline moves as a whole when its last stage is empty or taken.
        self.advance.next = !self.v3.q.val() | self.out_ready.val();
        self.buffer.out_ready.next = self.advance.val();
        self.fire.next = self.buffer.out_valid.val() & self.advance.val();

        // ---- stage 1: integer ALU, multiplier, float unpack / align / add ----
        self.float1.next =
            (self.op1.q.val() == self.op_fadd.val()) | (self.op1.q.val() == self.op_fmul.val());
        self.align.fmul.next = self.op1.q.val() == self.op_fmul.val();
        self.align.a.next = self.a1.q.val();
        self.align.b.next = self.b1.q.val();
        // One multiplier: the integer operands, or the two significands.
        self.multiplier.x.next = self.a1.q.val();
        self.multiplier.y.next = self.b1.q.val();
        if self.float1.val() {
            self.multiplier.x.next = self.align.sig_a.val();
            self.multiplier.y.next = self.align.sig_b.val();
        }
        self.align.product.next = self.multiplier.product.val();
        self.alu.op.next = self.op1.q.val();
        self.alu.a.next = self.a1.q.val();
        self.alu.b.next = self.b1.q.val();
        self.alu.c.next = self.c1.q.val();
        self.alu.product.next = self.multiplier.product.val().get_bits::<32>(0);

        // ---- stage 2: normalize, round to nearest even, pack ----
        self.round.sign.next = self.sign2.q.val();
        self.round.exp.next = self.exp2.q.val();
        self.round.mant.next = self.mant2.q.val();
        self.round.special.next = self.class2.q.val();
        self.result.next = self.int2.q.val();
        if (self.op2.q.val() == self.op_fadd.val()) | (self.op2.q.val() == self.op_fmul.val()) {
            self.result.next = self.round.result.val();
        }

        // ---- pipeline registers ----
        // The immediate enters stage 1 in place of its operand, so it travels with
        // the entry like the opcode.
        self.select_now.next = self.op.q.val() == self.op_select.val();
        self.issue_b.next = self.buffer.out_b.val();
        if self.imm_en.q.val() & !self.select_now.val() {
            self.issue_b.next = self.imm.q.val();
        }
        self.issue_c.next = self.buffer.out_c.val();
        if self.imm_en.q.val() & self.select_now.val() {
            self.issue_c.next = self.imm.q.val();
        }
        if self.advance.val() {
            self.v1.d.next = self.fire.val();
            self.vc1.d.next = self.buffer.out_vc.val();
            self.tid1.d.next = self.buffer.out_tid.val();
            self.op1.d.next = self.op.q.val();
            self.a1.d.next = self.buffer.out_a.val();
            self.b1.d.next = self.issue_b.val();
            self.c1.d.next = self.issue_c.val();
            self.v2.d.next = self.v1.q.val();
            self.vc2.d.next = self.vc1.q.val();
            self.tid2.d.next = self.tid1.q.val();
            self.op2.d.next = self.op1.q.val();
            self.int2.d.next = self.alu.result.val();
            self.sign2.d.next = self.align.sign.val();
            self.exp2.d.next = self.align.exp.val();
            self.mant2.d.next = self.align.mant.val();
            self.class2.d.next = self.align.special.val();
            self.v3.d.next = self.v2.q.val();
            self.vc3.d.next = self.vc2.q.val();
            self.tid3.d.next = self.tid2.q.val();
            self.data3.d.next = self.result.val();
        }
        self.out_valid.next = self.v3.q.val();
        self.present_vc.next = self.zero_vc.val();
        self.present_tid.next = self.zero16.val();
        self.present_data.next = self.zero32.val();
        if self.v3.q.val() {
            self.present_vc.next = self.vc3.q.val();
            self.present_tid.next = self.tid3.q.val();
            self.present_data.next = self.data3.q.val();
        }
        self.out_vc.next = self.present_vc.val();
        self.out_tid.next = self.present_tid.val();
        self.out_data.next = self.present_data.val();
        if self.reset.val() {
            self.op.d.next = self.op_add.val();
            self.imm_en.d.next = false;
            self.imm.d.next = self.zero32.val();
            self.v1.d.next = false;
            self.v2.d.next = false;
            self.v3.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = ComputeUnit::<4, 2>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("compute_unit_4", &vlog).unwrap();
    }

    fn step(uut: &mut ComputeUnit<4, 2>, high: bool) {
        uut.clock.next = Clock::from(high);
        assert!(simulate(uut, 200));
    }

    /// 1.5 * -2.5 = -3.75 on channel 3, three cycles after the fire.
    #[test]
    fn multiplies_two_floats() {
        let mut uut = ComputeUnit::<4, 2>::default();
        uut.connect_all();
        step(&mut uut, false);
        uut.reset.next = true;
        step(&mut uut, true);
        step(&mut uut, false);
        uut.reset.next = false;
        uut.cfg_valid.next = true;
        uut.cfg_opcode.next = (opcode::FMUL as u64).into();
        step(&mut uut, true);
        step(&mut uut, false);
        uut.cfg_valid.next = false;
        uut.out_ready.next = true;
        uut.a_valid.next = true;
        uut.a_vc.next = 3u64.into();
        uut.a_tid.next = 9u64.into();
        uut.a_data.next = u64::from(1.5f32.to_bits()).into();
        uut.b_valid.next = true;
        uut.b_vc.next = 3u64.into();
        uut.b_tid.next = 9u64.into();
        uut.b_data.next = u64::from((-2.5f32).to_bits()).into();
        step(&mut uut, true);
        step(&mut uut, false);
        uut.a_valid.next = false;
        uut.b_valid.next = false;
        let mut seen = None;
        for cycle in 0..6 {
            step(&mut uut, false);
            if uut.out_valid.val() {
                seen = Some((cycle, uut.out_vc.val(), uut.out_data.val()));
                break;
            }
            step(&mut uut, true);
        }
        let (cycle, vc, data) = seen.expect("a result");
        assert_eq!(cycle, 3, "fire in cycle 0, result 3 cycles later");
        assert_eq!(vc, Bits::<2>::from(3u64));
        assert_eq!(data, Bits::<32>::from(u64::from((-3.75f32).to_bits())));
    }
}
