//! Divide tile of the MT-CGRF fabric: a token buffer pairing the two operands of a
//! thread in front of the special compute unit (`vgiw-control-flow-coalescing.txt`
//! §3.5 "Special compute units"; SPEC §6), with its configured operation.
//!
//! ```text
//!  a, b ─> token_buffer (2 operands) ─> special_compute_unit (4 dividers) ─> out
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `cfg_valid`, `cfg_opcode` | in | 1, 2 | configuration write: 0 divu, 1 div, 2 remu, 3 rem (`special_compute_unit.rs`) |
//! | `a_*`, `b_*` | token links (`cgrf/mod.rs`) | | dividend, divisor |
//! | `out_*` | out link | | the result token |
//! | `busy`, `tid_error` | out | 1, 1 | an operand or a division is held; the token buffer's sticky error |
//!
//! Timing: operand to fire 1 cycle, then the SCU's latency of 9 cycles; 4 copies
//! start up to 4 divisions every 9 cycles (0.44 per cycle).
//!
//! Storage: token buffer (`VCS x 115 + VB + 3`) + SCU (4 copies) + 2 flip-flops.
//!
//! Choices where the paper is silent: 4 copies per tile (the `special_compute_unit`
//! preset has 9, the count for one division per cycle); two tiles sit on the fabric's
//! edge.
use crate::cgrf::special_compute_unit::SpecialComputeUnit;
use crate::cgrf::token_buffer::TokenBuffer;
use rust_hdl::prelude::*;

/// Divide tile with `VCS = 2^VB` virtual channels.
#[derive(LogicBlock)]
pub struct DivideTile<const VCS: usize, const VB: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empties the buffer and the dividers.
    pub reset: Signal<In, Bit>,
    // configuration
    pub cfg_valid: Signal<In, Bit>,
    pub cfg_opcode: Signal<In, Bits<2>>,
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
    // result link
    pub out_valid: Signal<Out, Bit>,
    pub out_ready: Signal<In, Bit>,
    pub out_vc: Signal<Out, Bits<VB>>,
    pub out_tid: Signal<Out, Bits<16>>,
    pub out_data: Signal<Out, Bits<32>>,
    // status
    pub busy: Signal<Out, Bit>,
    pub tid_error: Signal<Out, Bit>,
    opcode: DFF<Bits<2>>,
    buffer: TokenBuffer<VCS, VB>,
    scu: SpecialComputeUnit<VB, 4, 2, 3, 4, 4>,
    two_operands: Constant<Bits<2>>,
    no_vc: Constant<Bits<VB>>,
    no_tid: Constant<Bits<16>>,
    unused_c: Constant<Bits<32>>,
    zero_opcode: Constant<Bits<2>>,
}

impl<const VCS: usize, const VB: usize> Default for DivideTile<VCS, VB> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cfg_valid: Default::default(),
            cfg_opcode: Default::default(),
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
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_vc: Default::default(),
            out_tid: Default::default(),
            out_data: Default::default(),
            busy: Default::default(),
            tid_error: Default::default(),
            opcode: Default::default(),
            buffer: Default::default(),
            scu: Default::default(),
            two_operands: Constant::new(Bits::<2>::from(2u64)),
            no_vc: Constant::new(Bits::<VB>::default()),
            no_tid: Constant::new(Bits::<16>::default()),
            unused_c: Constant::new(Bits::<32>::default()),
            zero_opcode: Constant::new(Bits::<2>::default()),
        }
    }
}

impl<const VCS: usize, const VB: usize> Logic for DivideTile<VCS, VB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, opcode);
        self.buffer.clock.next = self.clock.val();
        self.buffer.reset.next = self.reset.val();
        self.scu.clock.next = self.clock.val();
        self.scu.reset.next = self.reset.val();
        if self.cfg_valid.val() {
            self.opcode.d.next = self.cfg_opcode.val();
        }
        if self.reset.val() {
            self.opcode.d.next = self.zero_opcode.val();
        }
        self.buffer.cfg_valid.next = self.cfg_valid.val();
        self.buffer.cfg_operands.next = self.two_operands.val();
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
        self.buffer.c_valid.next = false;
        self.buffer.c_vc.next = self.no_vc.val();
        self.buffer.c_tid.next = self.no_tid.val();
        self.buffer.c_data.next = self.unused_c.val();
        self.scu.opcode.next = self.opcode.q.val();
        self.scu.in_valid.next = self.buffer.out_valid.val();
        self.buffer.out_ready.next = self.scu.in_ready.val();
        self.scu.in_vc.next = self.buffer.out_vc.val();
        self.scu.in_tid.next = self.buffer.out_tid.val();
        self.scu.in_a.next = self.buffer.out_a.val();
        self.scu.in_b.next = self.buffer.out_b.val();
        self.out_valid.next = self.scu.out_valid.val();
        self.scu.out_ready.next = self.out_ready.val();
        self.out_vc.next = self.scu.out_vc.val();
        self.out_tid.next = self.scu.out_tid.val();
        self.out_data.next = self.scu.out_data.val();
        self.busy.next = self.buffer.busy.val() | self.scu.in_flight.val().any();
        self.tid_error.next = self.buffer.tid_error.val();
    }
}
