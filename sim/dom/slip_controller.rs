//! Adaptive slip controller model (SPEC §4, `diverge-on-miss.txt` §5.1). The rules are
//! written out in `weft_hdl::dom::slip_controller`'s header; this is them in plain Rust.

/// One cycle's inputs.
#[derive(Clone, Debug, Default)]
pub struct SlipInputs {
    pub reset: bool,
    pub warp: usize,
    pub clear: bool,
    pub event: bool,
    pub considered: u64,
    pub exec: u64,
    pub hit: u64,
    pub slipped: bool,
    pub raise: bool,
    pub lower: bool,
}

/// What the controller shows for `warp` this cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlipOutputs {
    pub limit_mask: u64,
    pub forbid: bool,
    pub tail: u64,
    pub grow: bool,
    pub shrink: bool,
    pub max_slip: u8,
}

#[derive(Clone, Debug)]
pub struct SlipController {
    pub lanes: usize,
    pub init: u8,
    /// How far one raise or lower moves max-slip (saturating).
    pub step: u8,
    /// `counters[warp][lane]`.
    pub counters: Vec<Vec<u8>>,
    pub limit: Vec<u64>,
    pub max_slip: u8,
}

impl SlipController {
    pub fn new(lanes: usize, warps: usize, init: u8, step: u8) -> Self {
        SlipController {
            lanes,
            init,
            step,
            counters: vec![vec![0; lanes]; warps],
            limit: vec![0; warps],
            max_slip: init,
        }
    }

    fn row(&self, warp: usize) -> Vec<u8> {
        self.counters
            .get(warp)
            .cloned()
            .unwrap_or_else(|| vec![0; self.lanes])
    }

    /// (grow, shrink, tail) for the inputs.
    fn rules(&self, i: &SlipInputs) -> (bool, bool, u64) {
        let row = self.row(i.warp);
        let nz = (0..self.lanes)
            .filter(|&t| row[t] != 0)
            .fold(0u64, |m, t| m | 1 << t);
        let tail = i.considered & !nz;
        let e = i.exec & i.considered;
        let h = e & i.hit;
        let x = e & !i.hit;
        let grow = i.event && i.slipped && h != 0 && x & tail != 0;
        let shrink = i.event && e & tail != 0 && x & tail == 0;
        (grow, shrink, tail)
    }

    pub fn outputs(&self, i: &SlipInputs) -> SlipOutputs {
        let (grow, shrink, tail) = self.rules(i);
        let limit_mask = self.limit.get(i.warp).copied().unwrap_or(0);
        SlipOutputs {
            limit_mask,
            forbid: limit_mask & i.considered != 0,
            tail,
            grow: grow && !i.clear,
            shrink: shrink && !i.clear,
            max_slip: self.max_slip,
        }
    }

    pub fn clock(&mut self, i: &SlipInputs) {
        let (grow, shrink, _) = self.rules(i);
        let h = i.exec & i.considered & i.hit;
        if i.warp < self.counters.len() {
            for t in 0..self.lanes {
                let c = &mut self.counters[i.warp][t];
                let bit = 1u64 << t;
                if i.clear {
                    *c = 0;
                } else if grow && h & bit != 0 {
                    *c = c.saturating_add(1);
                } else if shrink && i.considered & bit != 0 && h & bit == 0 {
                    *c = c.saturating_sub(1);
                }
            }
        }
        if i.raise && !i.lower {
            self.max_slip = self.max_slip.saturating_add(self.step);
        }
        if i.lower && !i.raise {
            self.max_slip = self.max_slip.saturating_sub(self.step);
        }
        if i.reset {
            self.max_slip = self.init;
            for row in &mut self.counters {
                row.iter_mut().for_each(|c| *c = 0);
            }
        }
        for (w, row) in self.counters.iter().enumerate() {
            self.limit[w] = (0..self.lanes)
                .filter(|&t| row[t] >= self.max_slip)
                .fold(0, |m, t| m | 1 << t);
        }
    }
}
