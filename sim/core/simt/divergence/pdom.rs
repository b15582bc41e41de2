//! PDOM: one divergence stack per warp (the golden [`DivergenceStack`], SPEC §2.4),
//! reconverging at the branch's immediate post-dominator; every instruction issues as
//! one warp instruction. The baseline of every study and what other policies build on.
use super::{one_group, DivergenceStats, Policy};
use crate::core::machine::Machine;
use crate::core::simt::execute::Executed;
use crate::core::simt::kernel::Step;
use crate::core::thread::EXIT_PC;
use crate::lib::column_compactor::Group;
use crate::lib::divergence_stack::{BranchOutcome, DivergenceStack};
use crate::lwm::sub_warp_unit::Mode;

pub struct Pdom {
    lanes: usize,
    /// Per warp slot; a mask of one `u64` per row (one row but for large warps).
    pub(super) stacks: Vec<DivergenceStack<Vec<u64>>>,
}

impl Pdom {
    pub fn new(m: &Machine) -> Pdom {
        let core = m.core();
        let lanes = core.lanes as usize;
        Pdom {
            lanes,
            stacks: (0..core.warps)
                .map(|_| DivergenceStack::new(lanes, core.stack_entries as usize))
                .collect(),
        }
    }

    /// Warp `w`'s stack follows its threads: a branch with the taken threads `taken`
    /// (one `u64` per row), any other instruction to `ex.next_pc`.
    pub fn follow(
        &mut self,
        w: usize,
        step: &Step,
        ex: &Executed,
        taken: &[u64],
    ) -> Result<(), String> {
        let stack = &mut self.stacks[w];
        let pc = ex.pc;
        if step.inst.is_branch() {
            let target = pc.wrapping_add(step.inst.imm as u32);
            let outcome = stack.branch(
                taken.to_vec(),
                u64::from(target),
                u64::from(pc.wrapping_add(4)),
                u64::from(ex.reconvergence_pc),
            );
            if outcome == Some(BranchOutcome::Overflow) {
                return Err(format!(
                    "the divergence stack of {} entries overflowed at the branch at {pc:#x}; raise stack_entries",
                    stack.entries().len()
                ));
            }
        } else {
            stack.advance(u64::from(ex.next_pc));
        }
        let at_exit = stack.entries().last().map_or(0, |top| top.pc) == u64::from(EXIT_PC);
        if at_exit && stack.entries().len() != 1 {
            return Err(format!(
                "internal: threads left the kernel at {pc:#x} inside a divergent region"
            ));
        }
        Ok(())
    }
}

impl Policy for Pdom {
    fn rows(&self) -> usize {
        1
    }

    fn launch(&mut self, slots: &[usize], masks: Vec<Vec<u64>>, pc: u32) {
        for (&w, mask) in slots.iter().zip(masks) {
            let stack = &mut self.stacks[w];
            stack.reset();
            stack.init(mask, u64::from(pc));
        }
    }

    fn fetch(&self, w: usize) -> Option<(u32, &[u64])> {
        self.stacks[w]
            .entries()
            .last()
            .map(|top| (top.pc as u32, top.mask.as_slice()))
    }

    fn groups(&mut self, _: &Step, ex: &Executed, out: &mut Vec<Group>) -> Mode {
        one_group(out, self.lanes).lanes = ex.mask[0];
        Mode::Normal
    }

    fn resolve(&mut self, w: usize, step: &Step, ex: &Executed, _: &[Group]) -> Result<(), String> {
        self.follow(w, step, ex, &ex.taken)
    }

    fn stats(&self) -> DivergenceStats {
        DivergenceStats::Pdom
    }
}
