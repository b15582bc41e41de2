//! Two-level round-robin fetch scheduler model (`lwm-two-level-scheduling.txt` §3.2;
//! SPEC §2.3) and the plain round-robin baseline it must reduce to with one group.
//!
//! Cycle semantics: `outputs(ready)` is what the scheduler shows this cycle (it is
//! combinational in `ready`); `clock(...)` applies a rising edge with this cycle's
//! inputs. Warps are bits of a `u64` (`ready` bit `w` = warp `w`).

use crate::lib::round_robin_arbiter::grant;

/// What the scheduler shows in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grant {
    /// Some warp is ready.
    pub valid: bool,
    /// The granted warp; 0 when `valid` is false.
    pub warp: usize,
    /// The granted warp's fetch group; the current group when `valid` is false.
    pub group: usize,
}

/// Two-level round robin: groups in round robin starting at the current group, warps
/// in round robin inside the group.
#[derive(Clone, Debug)]
pub struct TwoLevelScheduler {
    warps: usize,
    group_size: usize,
    /// The current (prioritized) fetch group.
    cur: usize,
    /// Per group, the warp number of its last granted warp.
    last: Vec<usize>,
}

impl TwoLevelScheduler {
    pub fn new(warps: usize, group_size: usize) -> Self {
        assert!((1..=64).contains(&warps), "1..=64 warps");
        assert!(
            group_size >= 1 && warps.is_multiple_of(group_size),
            "the group size divides the warp count"
        );
        let mut s = TwoLevelScheduler {
            warps,
            group_size,
            cur: 0,
            last: vec![],
        };
        s.reset();
        s
    }

    fn reset(&mut self) {
        let gs = self.group_size;
        self.cur = 0;
        self.last = (0..self.groups()).map(|g| g * gs + gs - 1).collect();
    }

    pub fn groups(&self) -> usize {
        self.warps / self.group_size
    }

    pub fn group_size(&self) -> usize {
        self.group_size
    }

    pub fn outputs(&self, ready: u64) -> Grant {
        let gs = self.group_size;
        for k in 0..self.groups() {
            let g = (self.cur + k) % self.groups();
            let base = g * gs;
            if let Some(w) = grant(ready >> base, gs, self.last[g] - base) {
                return Grant {
                    valid: true,
                    warp: base + w,
                    group: g,
                };
            }
        }
        Grant {
            valid: false,
            warp: 0,
            group: self.cur,
        }
    }

    /// Rising edge.
    pub fn clock(&mut self, reset: bool, ready: u64, accept: bool) {
        if reset {
            self.reset();
            return;
        }
        let out = self.outputs(ready);
        if out.valid && accept {
            self.cur = out.group;
            self.last[out.group] = out.warp;
        }
    }

    /// The current group.
    pub fn cur(&self) -> usize {
        self.cur
    }

    /// Per group, the last granted warp.
    pub fn last(&self) -> &[usize] {
        &self.last
    }
}

/// Plain round robin over all warps: the first ready warp after the last granted one.
#[derive(Clone, Debug)]
pub struct RoundRobin {
    warps: usize,
    last: usize,
}

impl RoundRobin {
    pub fn new(warps: usize) -> Self {
        assert!((1..=64).contains(&warps), "1..=64 warps");
        RoundRobin {
            warps,
            last: warps - 1,
        }
    }

    /// The granted warp, if any is ready.
    pub fn outputs(&self, ready: u64) -> Option<usize> {
        grant(ready, self.warps, self.last)
    }

    /// Rising edge.
    pub fn clock(&mut self, reset: bool, ready: u64, accept: bool) {
        if reset {
            self.last = self.warps - 1;
        } else if let (Some(w), true) = (self.outputs(ready), accept) {
            self.last = w;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_keeps_priority_until_it_stalls() {
        let mut s = TwoLevelScheduler::new(8, 4);
        let all = 0xff;
        let g = s.outputs(all);
        assert_eq!((g.valid, g.warp, g.group), (true, 0, 0));
        s.clock(false, all, true);
        assert_eq!(s.outputs(all).warp, 1);
        s.clock(false, all, true);
        // Group 0 stalled: group 1 from its first warp.
        assert_eq!(s.outputs(0xf0).warp, 4);
        s.clock(false, 0xf0, true);
        assert_eq!(s.cur(), 1);
        assert_eq!(s.outputs(all).warp, 5, "group 1 keeps priority");
        // Back to group 0: after its last grant (warp 1).
        assert_eq!(s.outputs(0x0f).warp, 2);
        assert_eq!(
            s.outputs(0),
            Grant {
                valid: false,
                warp: 0,
                group: 1
            }
        );
    }

    #[test]
    fn one_group_is_round_robin() {
        let mut s = TwoLevelScheduler::new(8, 8);
        let mut rr = RoundRobin::new(8);
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for cycle in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let ready = x & (x >> 8) & 0xff;
            let (reset, accept) = (cycle % 997 == 0, x >> 40 & 3 != 0);
            let g = s.outputs(ready);
            assert_eq!(rr.outputs(ready), g.valid.then_some(g.warp));
            s.clock(reset, ready, accept);
            rr.clock(reset, ready, accept);
        }
    }

    #[test]
    fn round_robin_grants_the_first_ready_warp_after_the_last() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for warps in [1, 3, 8, 31, 32, 64] {
            for last in 0..warps {
                for _ in 0..200 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // Sparse and dense masks, bits above `warps` set too.
                    let ready = if x & 1 == 0 {
                        x
                    } else {
                        x & (x >> 3) & (x >> 5)
                    };
                    let scan = (1..=warps)
                        .map(|k| (last + k) % warps)
                        .find(|&w| ready >> w & 1 == 1);
                    let rr = RoundRobin { warps, last };
                    assert_eq!(
                        rr.outputs(ready),
                        scan,
                        "{warps} warps, last {last}, {ready:#x}"
                    );
                }
            }
        }
    }
}
