//! WCU model (SPEC §3.2): the column compactor over the warps of the update mask.
use crate::lib::column_compactor::{clear, min_groups, pick, Group};

/// What the WCU presents in one cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compacted {
    pub valid: bool,
    pub group: Group,
    pub last: bool,
    pub warps_needed: usize,
    pub waiting_warps: usize,
    pub saves_warps: bool,
}

#[derive(Clone, Debug)]
pub struct WarpCompactionUnit {
    lanes: usize,
    held: Vec<u64>,
    umask: u64,
    needed: usize,
    waiting: usize,
}

impl WarpCompactionUnit {
    pub fn new(warps: usize, lanes: usize) -> Self {
        assert!((1..=64).contains(&lanes) && (1..=64).contains(&warps));
        WarpCompactionUnit {
            lanes,
            held: vec![0; warps],
            umask: 0,
            needed: 0,
            waiting: 0,
        }
    }

    fn presented(&self) -> Group {
        pick(&self.held, self.lanes, |r| self.umask >> r & 1 == 1)
    }

    pub fn outputs(&self) -> Compacted {
        let group = self.presented();
        let valid = group.lanes != 0;
        let mut after = self.held.clone();
        clear(&mut after, &group);
        Compacted {
            valid,
            last: valid && after.iter().all(|&r| r == 0),
            group,
            warps_needed: self.needed,
            waiting_warps: self.waiting,
            saves_warps: self.needed < self.waiting,
        }
    }

    /// Rising edge; `mask` one `u64` per warp.
    pub fn clock(&mut self, reset: bool, load: bool, mask: &[u64], umask: u64) {
        if reset {
            self.held.iter_mut().for_each(|r| *r = 0);
            self.umask = 0;
            self.needed = 0;
            self.waiting = 0;
        } else if load {
            let lane_bits = if self.lanes == 64 {
                u64::MAX
            } else {
                (1 << self.lanes) - 1
            };
            for (w, (h, &m)) in self.held.iter_mut().zip(mask).enumerate() {
                *h = if umask >> w & 1 == 1 {
                    m & lane_bits
                } else {
                    0
                };
            }
            self.umask = umask;
            self.needed = min_groups(&self.held, self.lanes);
            self.waiting = self.held.iter().filter(|&&r| r != 0).count();
        } else {
            let g = self.presented();
            clear(&mut self.held, &g);
        }
    }
}
