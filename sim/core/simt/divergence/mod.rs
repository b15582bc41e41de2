//! How a core's warps diverge and reconverge: one policy per mechanism behind one seam.
//!
//! A policy owns what each warp executes next (its PC and threads) and decides how the
//! threads of an executed instruction form the warp instructions that take the issue
//! slot; the core owns everything else (execution, timing, memory, scheduling). PDOM
//! is the reference every policy degenerates to:
//! - [`pdom`]: a divergence stack per warp, reconverging at the immediate
//!   post-dominator (the baseline, the CAPRI paper's WPDOM);
//! - [`lwm`]: large warps broken into sub-warps (LWM §3.1) over PDOM's stacks.
//!
//! The hooks a mechanism overrides: [`Policy::launch`] (a CTA's warp starts),
//! [`Policy::fetch`] (what a warp issues next), [`Policy::groups`] (the warp
//! instructions its threads form), [`Policy::resolve`] (what a branch or any other
//! instruction does to the warp), [`Policy::stats`] (its own counters). The one `match`
//! on `divergence` is [`build`]; each policy checks its own machine keys ([`check`]).
pub mod lwm;
pub mod pdom;

use super::execute::Executed;
use super::kernel::Step;
use super::stats::Figures;
use crate::core::machine::{Divergence, Machine};
use crate::lib::column_compactor::Group;
use crate::lwm::sub_warp_unit::Mode;
use serde::Serialize;

pub trait Policy {
    /// Warp slot `w` starts a CTA: its threads `mask` (one `u64` of lanes per row) at
    /// `pc`.
    fn launch(&mut self, w: usize, mask: Vec<u64>, pc: u32);
    /// The PC warp `w` issues next and the rows of threads that issue it.
    fn fetch(&self, w: usize) -> Option<(u32, &[u64])>;
    /// The warp instructions (groups of lanes, each lane's thread from a row) that the
    /// executed instruction's threads form, in issue order, into `out`; how they were
    /// formed.
    fn groups(&mut self, step: &Step, ex: &Executed, out: &mut Vec<Group>) -> Mode;
    /// Warp `w` moves on after `ex` (issued as `groups`): the branch, or the next PC.
    /// An error when the warp cannot follow its threads (a full stack).
    fn resolve(
        &mut self,
        w: usize,
        step: &Step,
        ex: &Executed,
        groups: &[Group],
    ) -> Result<(), String>;
    /// What the policy counted.
    fn stats(&self) -> DivergenceStats;
}

/// What a policy counted, tagged with its name (`"policy": "pdom"` in JSON).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(tag = "policy", rename_all = "lowercase")]
pub enum DivergenceStats {
    Pdom,
    Lwm(lwm::LwmStats),
}

impl DivergenceStats {
    /// The policy's figures (after the core's, in [`Stats::figures`]).
    ///
    /// [`Stats::figures`]: crate::core::simt::Stats::figures
    pub fn figures(&self, f: &mut Figures) {
        match self {
            DivergenceStats::Pdom => {}
            DivergenceStats::Lwm(s) => s.figures(f),
        }
    }

    /// Two cores' counts together (cores of one machine run one policy).
    pub fn combined(self, other: DivergenceStats) -> DivergenceStats {
        match (self, other) {
            (DivergenceStats::Lwm(a), DivergenceStats::Lwm(b)) => {
                DivergenceStats::Lwm(lwm::LwmStats {
                    jump_opt_threads: a.jump_opt_threads + b.jump_opt_threads,
                })
            }
            (a, _) => a,
        }
    }
}

/// The machine's policy for a core of `m.warps` warp slots.
pub fn build(m: &Machine) -> Box<dyn Policy> {
    match m.divergence {
        Divergence::Pdom => Box::new(pdom::Pdom::new(m)),
        Divergence::Lwm => Box::new(lwm::Lwm::new(m)),
    }
}

/// Refuses a machine the policy cannot run.
pub fn check(m: &Machine) -> Result<(), String> {
    match m.divergence {
        Divergence::Pdom => pdom::check(m),
        Divergence::Lwm => lwm::check(m),
    }
}
