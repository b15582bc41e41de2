//! Large warps (LWM §3.1): a warp of `warp_size / lanes` rows (row `r`, lane `c` is the
//! warp's thread `r * lanes + c`) keeps PDOM's stack of row masks; the golden sub-warp
//! unit breaks the fetched mask into sub-warps, one per cycle, each a warp instruction
//! of its own. A global memory instruction forms one sub-warp per row
//! (`lwm_memory_opt`), `jal x0` one sub-warp (`lwm_jump_opt`). A branch's outcomes
//! collect in the golden branch buffers over its sub-warps; after the last one the
//! warp's stack branches on them. One sub-warp unit and one set of buffers serve the
//! core (LWM Figure 5: one warp is broken up at a time).
use super::pdom::Pdom;
use super::{DivergenceStats, Policy};
use crate::core::isa::Op;
use crate::core::machine::{divergence as settings, Machine};
use crate::core::simt::execute::{bits, Executed};
use crate::core::simt::kernel::Step;
use crate::core::simt::stats::Figures;
use crate::lib::column_compactor::Group;
use crate::lwm::branch_buffers::{BranchBuffers, SubWarpOutcome};
use crate::lwm::sub_warp_unit::{Mode, SubWarpUnit};
use serde::Serialize;

/// What large warps counted.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct LwmStats {
    /// Threads of large-warp jumps issued as one sub-warp (`lwm_jump_opt`) beyond the
    /// lanes that sub-warp carried: counted in thread instructions (the program's), not
    /// in the histogram, SIMD utilisation or active threads per warp.
    pub jump_opt_threads: u64,
}

impl LwmStats {
    pub fn figures(&self, f: &mut Figures) {
        f.add_count(
            "lwm_jump_opt_threads",
            "LWM jump threads beyond one sub-warp",
            self.jump_opt_threads,
        );
    }
}

pub struct Lwm {
    pdom: Pdom,
    rows: usize,
    memory_opt: bool,
    jump_opt: bool,
    unit: SubWarpUnit,
    buffers: BranchBuffers,
    stats: LwmStats,
}

impl Lwm {
    pub fn new(m: &Machine, settings: &settings::Lwm) -> Lwm {
        let lanes = m.core().lanes as usize;
        let rows = m.core().rows() as usize;
        Lwm {
            pdom: Pdom::new(m),
            rows,
            memory_opt: settings.memory_opt,
            jump_opt: settings.jump_opt,
            unit: SubWarpUnit::new(lanes, rows),
            buffers: BranchBuffers::new(lanes, rows),
            stats: LwmStats::default(),
        }
    }
}

impl Policy for Lwm {
    fn rows(&self) -> usize {
        self.rows
    }

    fn launch(&mut self, slots: &[usize], masks: Vec<Vec<u64>>, pc: u32) {
        self.pdom.launch(slots, masks, pc);
    }

    fn fetch(&self, w: usize) -> Option<(u32, &[u64])> {
        self.pdom.fetch(w)
    }

    fn groups(&mut self, step: &Step, ex: &Executed, out: &mut Vec<Group>) -> Mode {
        let mode = if ex.global && self.memory_opt {
            Mode::Memory
        } else if step.inst.op == Op::Jal && step.inst.rd == 0 && self.jump_opt {
            Mode::Jump
        } else {
            Mode::Normal
        };
        if self.rows == 1 {
            self.pdom.groups(step, ex, out);
        } else {
            out.clear();
            self.unit.clock(false, true, &ex.mask, mode);
            loop {
                let sub = self.unit.outputs();
                if !sub.valid {
                    break;
                }
                out.push(sub.group);
                self.unit.clock(false, false, &ex.mask, mode);
                if sub.last {
                    break;
                }
            }
        }
        if mode == Mode::Jump {
            let carried: u32 = out.iter().map(|g| g.lanes.count_ones()).sum();
            self.stats.jump_opt_threads += u64::from(ex.active - carried);
        }
        mode
    }

    fn resolve(
        &mut self,
        w: usize,
        step: &Step,
        ex: &Executed,
        groups: &[Group],
    ) -> Result<(), String> {
        if !step.inst.is_branch() {
            return self.pdom.follow(w, step, ex, &[]);
        }
        // Each sub-warp's outcome collects in the branch buffers; after the last one
        // the stack reads them.
        for (g, group) in groups.iter().enumerate() {
            let taken = bits(group.lanes)
                .filter(|&lane| ex.taken[group.rows[lane]] >> lane & 1 == 1)
                .fold(0, |acc, lane| acc | 1 << lane);
            self.buffers.clock(
                false,
                Some(&SubWarpOutcome {
                    mask: group.lanes,
                    rows: group.rows.clone(),
                    taken,
                    last: g + 1 == groups.len(),
                }),
            );
        }
        let taken = self.buffers.outputs().taken;
        self.buffers.clock(false, None);
        self.pdom.follow(w, step, ex, &taken)
    }

    fn stats(&self) -> DivergenceStats {
        DivergenceStats::Lwm(self.stats.clone())
    }
}
