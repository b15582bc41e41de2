//! The analysed kernel: every instruction the control-flow graph reached, decoded once
//! with what the core needs of it (unit, registers, flow, reconvergence point, and
//! whether a branch is proven uniform).
use crate::core::cfg::{Flow, Reconvergence};
use crate::core::functional::Program;
use crate::core::isa::{Inst, Registers, Unit};
use crate::core::uniformity;

/// One instruction of the kernel as the core needs it.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    pub inst: Inst,
    pub unit: Unit,
    pub registers: Registers,
    pub flow: Flow,
    pub reconvergence: Option<Reconvergence>,
    /// A conditional branch every thread of a CTA takes the same way at each execution
    /// (proven by [`uniformity`]); `false` for every other instruction.
    pub uniform: bool,
}

/// A step for every instruction the CFG reached, indexed by PC.
pub struct Kernel {
    lo: u32,
    steps: Vec<Option<Step>>,
}

impl Kernel {
    pub fn new(program: &Program) -> Result<Kernel, String> {
        let cfg = program.cfg()?;
        let lo = cfg.flows.keys().copied().min().unwrap_or(0);
        let hi = cfg.flows.keys().copied().max().unwrap_or(0);
        let uniform = uniformity::uniform_branches(&cfg, |pc| program.fetch(pc).ok().copied());
        let mut steps = vec![None; ((hi - lo) / 4 + 1) as usize];
        for (&pc, &flow) in &cfg.flows {
            let inst = *program.fetch(pc)?;
            steps[((pc - lo) / 4) as usize] = Some(Step {
                inst,
                unit: inst.unit(),
                registers: inst.registers(),
                flow,
                reconvergence: cfg.reconvergence_of(pc),
                uniform: uniform.contains(&pc),
            });
        }
        Ok(Kernel { lo, steps })
    }

    /// Every analysed instruction with its PC, in address order.
    pub fn steps(&self) -> impl Iterator<Item = (u32, &Step)> {
        self.steps
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.as_ref().map(|s| (self.lo + 4 * i as u32, s)))
    }

    pub fn step(&self, pc: u32) -> Result<&Step, String> {
        pc.checked_sub(self.lo)
            .filter(|d| d.is_multiple_of(4))
            .and_then(|d| self.steps.get((d / 4) as usize))
            .and_then(Option::as_ref)
            .ok_or_else(|| format!("a warp reached {pc:#x}, outside the analysed kernel"))
    }
}
