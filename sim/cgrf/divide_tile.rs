//! Divide tile model (`hdl/cgrf/divide_tile.rs`): the token buffer model pairing a
//! thread's two operands in front of the special compute unit model, composed exactly
//! as the RTL wires them (the buffer fires when the unit can take an operation; the
//! configured operation is registered; a configuration write sets the buffer to two
//! operands). Cycle semantics as the unit models: `outputs()` is what the tile presents
//! this cycle, `clock()` applies a rising edge.
use crate::cgrf::special_compute_unit::{DivOp, DivToken, SpecialComputeUnit};
use crate::cgrf::token_buffer::{OperandToken, TokenBuffer, TokenBufferIn};

/// The tile's dividers: 4 copies of latency 9 (`SpecialComputeUnit<VB, 4, 2, 3, 4, 4>`).
pub const COPIES: usize = 4;
pub const LATENCY: usize = 9;

/// Inputs of one edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DivideTileIn {
    pub reset: bool,
    /// A configuration write (`cfg_valid`, `cfg_opcode`).
    pub cfg: Option<DivOp>,
    /// Tokens offered on operand links a (dividend) and b (divisor).
    pub a: Option<OperandToken>,
    pub b: Option<OperandToken>,
    pub out_ready: bool,
}

/// What the tile presents in one cycle (`out` is 0 when not valid).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DivideTileOut {
    pub a_ready: bool,
    pub b_ready: bool,
    pub out_valid: bool,
    pub out: DivToken,
    pub busy: bool,
    pub tid_error: bool,
}

#[derive(Clone, Debug)]
pub struct DivideTile {
    buffer: TokenBuffer,
    scu: SpecialComputeUnit,
    op: DivOp,
}

impl DivideTile {
    pub fn new(vcs: usize) -> Self {
        Self::with_dividers(vcs, COPIES, LATENCY)
    }

    /// Another divider count or latency than the RTL's (tests show the bench notices).
    pub fn with_dividers(vcs: usize, copies: usize, latency: usize) -> Self {
        Self {
            buffer: TokenBuffer::new(vcs),
            scu: SpecialComputeUnit::new(copies, latency),
            op: DivOp::Divu,
        }
    }

    /// The registered operation.
    pub fn op(&self) -> DivOp {
        self.op
    }

    /// Outputs, given the channels on links a and b (whatever their valid bits).
    pub fn outputs(&self, a_vc: usize, b_vc: usize, out_ready: bool) -> DivideTileOut {
        let scu = self.scu.outputs(out_ready);
        let buffer = self.buffer.outputs([a_vc, b_vc, 0]);
        DivideTileOut {
            a_ready: buffer.link_ready[0],
            b_ready: buffer.link_ready[1],
            out_valid: scu.out_valid,
            out: scu.out,
            busy: buffer.busy || scu.in_flight > 0,
            tid_error: buffer.tid_error,
        }
    }

    /// Rising edge.
    pub fn clock(&mut self, i: &DivideTileIn) {
        let scu_ready = self.scu.outputs(i.out_ready).in_ready;
        let vcs = [i.a.map_or(0, |t| t.vc), i.b.map_or(0, |t| t.vc), 0];
        let offered = self.buffer.outputs(vcs).out.map(|f| {
            let [a, b, _] = f.operands;
            (f.vc as u32, f.tid, a, b)
        });
        self.buffer.clock(&TokenBufferIn {
            reset: i.reset,
            cfg: i.cfg.map(|_| 2),
            links: [i.a, i.b, None],
            out_ready: scu_ready,
        });
        self.scu.clock(i.reset, self.op, offered, i.out_ready);
        if let Some(op) = i.cfg {
            self.op = op;
        }
        if i.reset {
            self.op = DivOp::Divu;
        }
    }
}
