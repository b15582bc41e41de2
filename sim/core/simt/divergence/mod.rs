//! How a core's warps diverge and reconverge: one policy per mechanism behind one seam.
//!
//! A policy owns what each warp executes next (its PC and threads) and decides how the
//! threads of an executed instruction form the warp instructions that take the issue
//! slot; the core owns everything else (execution, timing, memory, scheduling). PDOM
//! is the reference every policy degenerates to:
//! - [`pdom`]: a divergence stack per warp, reconverging at the immediate
//!   post-dominator (the baseline, the CAPRI paper's WPDOM);
//! - [`lwm`]: large warps broken into sub-warps (LWM §3.1) over PDOM's stacks;
//! - [`tbc`]: thread block compaction, TBC+ and CAPRI: a CTA-wide stack, warps formed
//!   anew by the warp compaction unit (CAPRI §2.2, §3);
//! - [`dom`]: diverge on miss over PDOM's stacks: the threads of a load that miss wait
//!   while the others run on (DoM §4-5).
//!
//! The hooks a mechanism overrides: [`Policy::launch`] (a CTA's warps start),
//! [`Policy::fetch`] (what a warp issues next, and [`Policy::home`], whose threads),
//! [`Policy::groups`] (the warp instructions its threads form), [`Policy::resolve`]
//! (what a branch or any other instruction does to the warp), [`Policy::settle`] (what
//! a warp owes its CTA once its instruction has completed), [`Policy::load`] (what a
//! global load's lookups found, per thread), [`Policy::fill`] and [`Policy::waits`]
//! (lines the policy waits for, and a warp that waits for it), [`Policy::tick`] (the
//! core's activity, cycle by cycle), [`Policy::stats`] (its own counters). The one `match` on the machine's [`Divergence`] is [`build`]; each
//! policy's settings are checked with the machine (`core/machine/divergence.rs`).
pub mod dom;
pub mod lwm;
pub mod pdom;
pub mod tbc;
#[cfg(test)]
mod tests;

use super::execute::Executed;
use super::kernel::{Kernel, Step};
use super::stats::Figures;
use crate::capri::capri_decision::Policy as Scheme;
use crate::core::machine::{Divergence, Machine};
use crate::lib::column_compactor::Group;
use crate::lwm::sub_warp_unit::Mode;
use serde::Serialize;

/// What a policy does to warp slots besides the one it resolves (thread block
/// compaction forms and dissolves warps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A warp runs in slot `w`, fetchable from cycle `at`.
    Runs { w: usize, at: u64 },
    /// Slot `w` has no warp to fetch: its warp waits for its CTA's stack, or the slot
    /// waits for a warp to be formed in it.
    Parked(usize),
    /// Slot `w`'s CTA has finished: every thread returned.
    Done(usize),
}

/// A global load as the core's lookups found it, per thread of the warp (lanes).
pub struct Load<'a> {
    pub pc: u32,
    /// Threads that executed it.
    pub exec: u64,
    /// Threads whose line missed.
    pub miss: u64,
    /// The lines that missed, one per miss (each comes back as one arrival).
    pub missed: &'a [u32],
    /// Each thread's address (0 for threads without a global access).
    pub addrs: &'a [u32],
    /// A line was refused for want of an MSHR: the load blocks.
    pub refused_line: bool,
}

/// What the core did in a span of cycles (diverge on miss's adaptive diff reads it).
#[derive(Clone, Copy, Debug)]
pub struct Activity {
    /// Cycles in the span.
    pub cycles: u64,
    /// Whether the core started an instruction in the span's first cycle (none in
    /// the others).
    pub started: bool,
    /// Cycles of the span in which the DRAM bus moved data.
    pub bus_cycles: u64,
    /// Whether the core waited on memory (the span's idle cycles count as memory).
    pub memory_stall: bool,
}

pub trait Policy {
    /// Reads what it needs of the analysed kernel, once before the launch.
    fn prepare(&mut self, _kernel: &Kernel) -> Result<(), String> {
        Ok(())
    }
    /// Whether a CTA's warp slots must be consecutive (its threads are addressed as
    /// rows from its first slot, [`Policy::home`]).
    fn consecutive(&self) -> bool {
        false
    }
    /// Rows in the masks [`Policy::fetch`] returns, at most.
    fn rows(&self) -> usize;
    /// A CTA (or CTAs packed into one warp) starts in warp slots `slots`: per slot its
    /// threads (one `u64` of lanes per row) at `pc`.
    fn launch(&mut self, slots: &[usize], masks: Vec<Vec<u64>>, pc: u32);
    /// The warp slot whose threads row 0 of warp `w`'s mask addresses (row `r` is the
    /// slot `home + r`'s threads when a row is a warp).
    fn home(&self, w: usize) -> usize {
        w
    }
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
    /// The warps (bit `w` = slot `w`) that owe their CTA an event once their last
    /// instruction has completed (a branch, or a reconvergence point reached).
    fn due(&self) -> u64 {
        0
    }
    /// Warp `w`, due, has completed its instruction by `now`: sends its event.
    fn settle(&mut self, _w: usize, _now: u64) -> Result<(), String> {
        Ok(())
    }
    /// The slot changes since the last call, into `out`.
    fn changes(&mut self, _out: &mut Vec<Change>) {}
    /// Whether every live thread of warp `w`'s CTA is in a warp that can run (none waits
    /// in a stack entry): a barrier may release only then.
    fn settled(&self, _w: usize) -> bool {
        true
    }
    /// Warp `w`'s global load, as its lookups found it: whether the warp goes on
    /// without the threads that missed (they wait in the policy, which then receives
    /// their lines' arrivals through [`Policy::fill`]); `false` blocks the warp until
    /// every line is in.
    fn load(&mut self, _w: usize, _load: &Load) -> bool {
        false
    }
    /// A line warp `w` asked for has arrived: whether it was the policy's.
    fn fill(&mut self, _w: usize, _line: u32) -> Result<bool, String> {
        Ok(false)
    }
    /// Whether warp `w` waits for the policy (for a line of its waiting threads).
    fn waits(&self, _w: usize) -> bool {
        false
    }
    /// The core's activity over a span of cycles.
    fn tick(&mut self, _activity: Activity) {}
    /// What the policy counted.
    fn stats(&self) -> DivergenceStats;
}

/// What a policy counted, tagged with its name (`"policy": "pdom"` in JSON).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(tag = "policy", rename_all = "lowercase")]
pub enum DivergenceStats {
    Pdom,
    Lwm(lwm::LwmStats),
    /// Thread block compaction, TBC+ or CAPRI (`"policy": "tbc"`, the scheme inside).
    Tbc(tbc::TbcStats),
    Dom(dom::DomStats),
}

impl DivergenceStats {
    /// The policy's figures (after the core's, in [`Stats::figures`]).
    ///
    /// [`Stats::figures`]: crate::core::simt::Stats::figures
    pub fn figures(&self, f: &mut Figures) {
        match self {
            DivergenceStats::Pdom => {}
            DivergenceStats::Lwm(s) => s.figures(f),
            DivergenceStats::Tbc(s) => s.figures(f),
            DivergenceStats::Dom(s) => s.figures(f),
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
            (DivergenceStats::Tbc(a), DivergenceStats::Tbc(b)) => {
                DivergenceStats::Tbc(a.combined(&b))
            }
            (DivergenceStats::Dom(a), DivergenceStats::Dom(b)) => {
                DivergenceStats::Dom(a.combined(&b))
            }
            (a, _) => a,
        }
    }
}

/// `out` made one group of `lanes` lanes, none carrying a thread, every row 0 (reusing
/// its storage: the issue of a policy that issues the fetched threads together).
fn one_group(out: &mut Vec<Group>, lanes: usize) -> &mut Group {
    out.truncate(1);
    if out.is_empty() {
        out.push(Group::default());
    }
    let group = &mut out[0];
    group.lanes = 0;
    group.rows.clear();
    group.rows.resize(lanes, 0);
    group
}

/// The machine's policy for a core of `m`'s warp slots.
pub fn build(m: &Machine) -> Box<dyn Policy> {
    match m.divergence() {
        Divergence::Pdom => Box::new(pdom::Pdom::new(m)),
        Divergence::Lwm(settings) => Box::new(lwm::Lwm::new(m, settings)),
        Divergence::Tbc => Box::new(tbc::Tbc::new(m, Scheme::Tbc, None)),
        Divergence::TbcPlus => Box::new(tbc::Tbc::new(m, Scheme::TbcPlus, None)),
        Divergence::Capri(capt) => Box::new(tbc::Tbc::new(m, Scheme::Capri, Some(capt))),
        Divergence::Dom(settings) => Box::new(dom::Dom::new(m, settings)),
    }
}

/// Refuses a launch the policy cannot run.
pub fn check_launch(m: &Machine, cta: u32) -> Result<(), String> {
    if m.divergence().compacts() {
        tbc::check_launch(m, cta)?;
    }
    Ok(())
}
