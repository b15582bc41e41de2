//! Special compute unit model (SPEC §6): `copies` divider instances, each busy for
//! `latency` cycles from its load edge to the cycle its result is presented, results in
//! issue order (every operation takes the same time). Cycle semantics: `outputs()` is
//! what the unit presents this cycle; `clock()` applies a rising edge.
//!
//! The arithmetic is Rust's, with RISC-V M's definitions of divide by zero and signed
//! overflow (`divide`), not a model of the hardware's restoring divider.
use std::collections::VecDeque;

/// The configured operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DivOp {
    Divu = 0,
    Div = 1,
    Remu = 2,
    Rem = 3,
}

impl DivOp {
    pub const ALL: [DivOp; 4] = [DivOp::Divu, DivOp::Div, DivOp::Remu, DivOp::Rem];

    /// The opcode field of the unit.
    pub fn code(self) -> u64 {
        self as u64
    }
}

/// RISC-V M semantics: `x / 0 = all ones`, `x % 0 = x`, `-2^31 / -1 = -2^31`,
/// `-2^31 % -1 = 0`.
pub fn divide(op: DivOp, a: u32, b: u32) -> u32 {
    let (sa, sb) = (a as i32, b as i32);
    match op {
        DivOp::Divu => a.checked_div(b).unwrap_or(u32::MAX),
        DivOp::Remu => a.checked_rem(b).unwrap_or(a),
        DivOp::Div if b == 0 => u32::MAX,
        DivOp::Div => sa.wrapping_div(sb) as u32,
        DivOp::Rem if b == 0 => a,
        DivOp::Rem => sa.wrapping_rem(sb) as u32,
    }
}

/// One operation offered or in flight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DivToken {
    pub vc: u32,
    pub tid: u16,
    pub data: u32,
}

/// What the unit presents in one cycle (the result fields are 0 when not valid).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScuOut {
    pub in_ready: bool,
    pub out_valid: bool,
    pub out: DivToken,
    pub in_flight: usize,
}

#[derive(Clone, Debug)]
struct InFlight {
    result: DivToken,
    /// Edges until the result is presented.
    remaining: usize,
}

#[derive(Clone, Debug)]
pub struct SpecialComputeUnit {
    copies: usize,
    latency: usize,
    ring: VecDeque<InFlight>,
}

impl SpecialComputeUnit {
    /// `latency`: cycles from the accepting edge to the result being presented.
    pub fn new(copies: usize, latency: usize) -> Self {
        assert!(copies >= 1 && latency >= 1);
        Self {
            copies,
            latency,
            ring: VecDeque::new(),
        }
    }

    pub fn outputs(&self, out_ready: bool) -> ScuOut {
        let head = self.ring.front().filter(|f| f.remaining == 0);
        let pop = head.is_some() && out_ready;
        ScuOut {
            in_ready: self.ring.len() < self.copies || pop,
            out_valid: head.is_some(),
            out: head.map(|f| f.result).unwrap_or_default(),
            in_flight: self.ring.len(),
        }
    }

    /// Rising edge: `op` is the opcode, `input` the offered operation (vc, tid, a, b).
    pub fn clock(
        &mut self,
        reset: bool,
        op: DivOp,
        input: Option<(u32, u16, u32, u32)>,
        out_ready: bool,
    ) {
        if reset {
            self.ring.clear();
            return;
        }
        let now = self.outputs(out_ready);
        if now.out_valid && out_ready {
            self.ring.pop_front();
        }
        for f in self.ring.iter_mut() {
            f.remaining = f.remaining.saturating_sub(1);
        }
        if let Some((vc, tid, a, b)) = input.filter(|_| now.in_ready) {
            self.ring.push_back(InFlight {
                result: DivToken {
                    vc,
                    tid,
                    data: divide(op, a, b),
                },
                remaining: self.latency - 1,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn riscv_corner_cases() {
        let min = i32::MIN as u32;
        let m1 = (-1i32) as u32;
        assert_eq!(divide(DivOp::Divu, 7, 0), u32::MAX);
        assert_eq!(divide(DivOp::Remu, 7, 0), 7);
        assert_eq!(divide(DivOp::Div, (-7i32) as u32, 0), u32::MAX);
        assert_eq!(divide(DivOp::Rem, (-7i32) as u32, 0), (-7i32) as u32);
        assert_eq!(divide(DivOp::Div, min, m1), min);
        assert_eq!(divide(DivOp::Rem, min, m1), 0);
        assert_eq!(divide(DivOp::Div, (-7i32) as u32, 2), (-3i32) as u32);
        assert_eq!(divide(DivOp::Rem, (-7i32) as u32, 2), (-1i32) as u32);
        assert_eq!(divide(DivOp::Divu, (-7i32) as u32, 2), 0x7fff_fffc);
    }
}
