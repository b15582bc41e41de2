//! Large-warp branch buffers model (SPEC §2.2; `lwm-two-level-scheduling.txt` §3.1).
//! Cycle semantics: `outputs()` is what the unit shows this cycle; `clock()` applies a
//! rising edge with this cycle's inputs.

/// What the unit shows in one cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BranchResult {
    /// The buffers hold a finished branch (the cycle after `last`).
    pub done: bool,
    /// Taken threads, one `u64` per row (bit `c` = lane `c`).
    pub taken: Vec<u64>,
    /// Not-taken threads, one `u64` per row.
    pub not_taken: Vec<u64>,
    /// `done` and both masks non-empty.
    pub diverged: bool,
}

/// One sub-warp's branch outcome.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SubWarpOutcome {
    /// Lanes active in the sub-warp.
    pub mask: u64,
    /// Row of lane `c`'s thread (ignored for inactive lanes).
    pub rows: Vec<usize>,
    /// Lane `c` took the branch (ignored for inactive lanes).
    pub taken: u64,
    /// The branch's last sub-warp.
    pub last: bool,
}

#[derive(Clone, Debug)]
pub struct BranchBuffers {
    lanes: usize,
    taken: Vec<u64>,
    not_taken: Vec<u64>,
    done: bool,
}

impl BranchBuffers {
    pub fn new(lanes: usize, rows: usize) -> Self {
        assert!((1..=64).contains(&lanes), "1..=64 lanes");
        assert!(rows >= 1, "at least one row");
        BranchBuffers {
            lanes,
            taken: vec![0; rows],
            not_taken: vec![0; rows],
            done: false,
        }
    }

    pub fn outputs(&self) -> BranchResult {
        let any = |v: &[u64]| v.iter().any(|&r| r != 0);
        BranchResult {
            done: self.done,
            taken: self.taken.clone(),
            not_taken: self.not_taken.clone(),
            diverged: self.done && any(&self.taken) && any(&self.not_taken),
        }
    }

    /// Rising edge: `sub` is this cycle's sub-warp outcome when `valid`.
    pub fn clock(&mut self, reset: bool, sub: Option<&SubWarpOutcome>) {
        if reset || self.done {
            // A finished branch was read this cycle; the buffers start over.
            self.taken.iter_mut().for_each(|r| *r = 0);
            self.not_taken.iter_mut().for_each(|r| *r = 0);
        }
        self.done = false;
        if reset {
            return;
        }
        if let Some(sub) = sub {
            for c in 0..self.lanes {
                if sub.mask >> c & 1 == 1 {
                    let row = sub.rows[c];
                    if sub.taken >> c & 1 == 1 {
                        self.taken[row] |= 1 << c;
                    } else {
                        self.not_taken[row] |= 1 << c;
                    }
                }
            }
            self.done = sub.last;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collects_then_clears() {
        let mut b = BranchBuffers::new(2, 2);
        let sub = |mask, rows: [usize; 2], taken, last| SubWarpOutcome {
            mask,
            rows: rows.to_vec(),
            taken,
            last,
        };
        b.clock(false, Some(&sub(0b11, [0, 1], 0b01, false)));
        b.clock(false, Some(&sub(0b01, [1, 0], 0b00, true)));
        let out = b.outputs();
        assert!(out.done && out.diverged);
        assert_eq!(out.taken, vec![0b01, 0b00]);
        assert_eq!(out.not_taken, vec![0b00, 0b11]);
        b.clock(false, None);
        assert_eq!(b.outputs().taken, vec![0, 0]);
        assert!(!b.outputs().done);
    }
}
