//! The fetch scheduler: the golden round-robin or two-level scheduler grants one ready
//! warp per cycle (plain round robin when one fetch group holds every warp).
use crate::core::machine::Machine;
use crate::sched::two_level_scheduler::{RoundRobin, TwoLevelScheduler};

pub enum Scheduler {
    RoundRobin(RoundRobin),
    TwoLevel(TwoLevelScheduler),
}

impl Scheduler {
    /// `two_level_always`: the two-level scheduler even for one fetch group (a check
    /// that the two agree).
    pub fn new(m: &Machine, two_level_always: bool) -> Scheduler {
        let m = m.core();
        let warps = m.warps as usize;
        if m.fetch_group == m.warps && !two_level_always {
            Scheduler::RoundRobin(RoundRobin::new(warps))
        } else {
            Scheduler::TwoLevel(TwoLevelScheduler::new(warps, m.fetch_group as usize))
        }
    }

    /// One fetch group per CTA (`sticky_cta`): `groups` aligned groups of `group` warps;
    /// the current CTA keeps priority until none of its warps is ready.
    pub fn sticky(groups: usize, group: usize) -> Scheduler {
        Scheduler::TwoLevel(TwoLevelScheduler::new(groups * group, group))
    }

    /// The two-level scheduler's (groups, warps per group).
    pub fn groups(&self) -> Option<(usize, usize)> {
        match self {
            Scheduler::RoundRobin(_) => None,
            Scheduler::TwoLevel(s) => Some((s.groups(), s.group_size())),
        }
    }

    /// The warp granted among `ready` (bit `w` = warp `w`), if any.
    pub fn grant(&mut self, ready: u64) -> Option<usize> {
        match self {
            Scheduler::RoundRobin(s) => {
                let g = s.outputs(ready);
                s.clock(false, ready, true);
                g
            }
            Scheduler::TwoLevel(s) => {
                let g = s.outputs(ready);
                s.clock(false, ready, true);
                g.valid.then_some(g.warp)
            }
        }
    }
}
